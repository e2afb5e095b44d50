
/* Code the compile stage's tests build (tests/build/test_trees.sh): each
 * tool of the stage already has a warning here, on the base. */
struct rb_base_s {
	int a;
};

static int rb_base_unused(int x)
{
	return x;
}

int rb_base_user(int __user *up);
int rb_base_user(int __user *up)
{
	return *up;
}

int rb_base_null(int x);
int rb_base_null(int x)
{
	struct rb_base_s *t = NULL;

	if (x > 3)
		t = kmalloc(sizeof(*t), GFP_KERNEL);
	return t->a;
}

int rb_base_cocci(int x);
int rb_base_cocci(int x)
{
	char *p = kmalloc(16, GFP_KERNEL);

	p[0] = x;
	kfree(p);
	return p[1];
}
