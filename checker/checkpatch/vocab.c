// SPDX-License-Identifier: GPL-2.0-only
/*
 * checkpatch.pl's vocabulary, transcribed from its qr{}x definitions with
 * the /x whitespace removed (so the flags below omit x).  Keep the order
 * and the alternation order of the original: Perl's alternation is ordered
 * and the first alternative that matches wins.
 *
 * Some alternations sit behind a look-ahead for the first two bytes all
 * of their alternatives start with (before $Attribute|$Sparse: "__",
 * "const", "volatile"): the same matches and groups, but a word that
 * starts otherwise fails at once instead of trying each alternative
 * (pcre2 tries them one by one, and the type patterns run at nearly
 * every word).  A contiguous run of alternatives is grouped, so their
 * order is kept.
 */
#include "vocab.h"

#include <string.h>

#include "../rules.h"
#include "../sbuf.h"
#include "../banned.h"

#define TYPELIST_MISORDERED \
	"(?^:(?=[cislu][hnoi])(?:" \
	"(?^:char\\s+(?:un)?signed)" "|" \
	"(?^:int\\s+(?:(?:un)?signed\\s+)?short\\s)" "|" \
	"(?^:int\\s+short(?:\\s+(?:un)?signed))" "|" \
	"(?^:short\\s+int(?:\\s+(?:un)?signed))" "|" \
	"(?^:(?:un)?signed\\s+int\\s+short)" "|" \
	"(?^:short\\s+(?:un)?signed)" "|" \
	"(?^:long\\s+int\\s+(?:un)?signed)" "|" \
	"(?^:int\\s+long\\s+(?:un)?signed)" "|" \
	"(?^:long\\s+(?:un)?signed\\s+int)" "|" \
	"(?^:int\\s+(?:un)?signed\\s+long)" "|" \
	"(?^:int\\s+(?:un)?signed)" "|" \
	"(?^:int\\s+long\\s+long\\s+(?:un)?signed)" "|" \
	"(?^:long\\s+long\\s+int\\s+(?:un)?signed)" "|" \
	"(?^:long\\s+long\\s+(?:un)?signed\\s+int)" "|" \
	"(?^:long\\s+long\\s+(?:un)?signed)" "|" \
	"(?^:long\\s+(?:un)?signed)" "))"

static const char *const type_list[] = {
	"(?^:(?=[vcsuilfdbe][ohinlt])(?:(?^:void)|"
	"(?^:(?:(?:un)?signed\\s+)?char)" "|"
	"(?^:(?:(?:un)?signed\\s+)?short\\s+int)" "|"
	"(?^:(?:(?:un)?signed\\s+)?short)" "|"
	"(?^:(?:(?:un)?signed\\s+)?int)" "|"
	"(?^:(?:(?:un)?signed\\s+)?long\\s+int)" "|"
	"(?^:(?:(?:un)?signed\\s+)?long\\s+long\\s+int)" "|"
	"(?^:(?:(?:un)?signed\\s+)?long\\s+long)" "|"
	"(?^:(?:(?:un)?signed\\s+)?long)" "|"
	"(?^:(?:un)?signed)" "|"
	"(?^:float)" "|"
	"(?^:double)" "|"
	"(?^:bool)" "|"
	"(?^:struct\\s+$Ident)" "|"
	"(?^:union\\s+$Ident)" "|"
	"(?^:enum\\s+$Ident)))",
	/*
	 * checkpatch.pl's ${Ident}_t, ${Ident}_handler and ${Ident}_handler_fn,
	 * in that order, behind a look-ahead every match of them implies: the
	 * identifier's words (joined by ##) hold a word that ends in "_t",
	 * "_handler" or "_handler_fn".  A word must end there because the
	 * type list is always followed by \b (vocab_build_types(),
	 * $NonptrType0): an alternative that stops inside a word fails
	 * there anyway.  The same matches and groups, but a word that ends
	 * otherwise is passed over in one possessive scan instead of three
	 * walks back along it (the type patterns spent half their time
	 * there).
	 */
	"(?^:(?=(?:[^\\W_]++|_(?!(?:t|handler(?:_fn)?)\\b)|\\s*+\\#\\#\\s*+)*+_(?:t|handler(?:_fn)?)\\b)"
	"(?:(?^:${Ident}_t)|(?^:${Ident}_handler)|(?^:${Ident}_handler_fn)))",
	TYPELIST_MISORDERED,
};

static const char *const type_list_misordered[] = {
	TYPELIST_MISORDERED,
};

/* @typeListWithAttr is taken once, from @typeList before any file words. */
static const char *const type_list_with_attr_extra[] = {
	"(?^:struct\\s+$InitAttribute\\s+$Ident)",
	"(?^:union\\s+$InitAttribute\\s+$Ident)",
};

static const struct vocab vocab_table[] = {
	{ "Ident", "[A-Za-z_][A-Za-z\\d_]*(?:\\s*\\#\\#\\s*[A-Za-z_][A-Za-z\\d_]*)*", "", VOCAB_QR, 0, 0 },
	{ "Storage", "extern|static|asmlinkage", "", VOCAB_QR, 0, 0 },
	{ "Sparse", "__user|__kernel|__force|__iomem|__must_check|__kprobes|__ref|__refconst|__refdata|__rcu|__private", "", VOCAB_QR, 0, 0 },
	{ "InitAttributePrefix", "__(?:mem|cpu|dev|net_|)", "", VOCAB_QR, 0, 0 },
	{ "InitAttributeData", "$InitAttributePrefix(?:initdata\\b)", "", VOCAB_QR, 0, 0 },
	{ "InitAttributeConst", "$InitAttributePrefix(?:initconst\\b)", "", VOCAB_QR, 0, 0 },
	{ "InitAttributeInit", "$InitAttributePrefix(?:init\\b)", "", VOCAB_QR, 0, 0 },
	{ "InitAttribute", "$InitAttributeData|$InitAttributeConst|$InitAttributeInit", "", VOCAB_QR, 0, 0 },
	{ "Attribute", "const|volatile|__percpu|__nocast|__safe|__bitwise|__packed__|__packed2__|__naked|__maybe_unused|__always_unused|__noreturn|__used|__cold|__pure|__noclone|__deprecated|__read_mostly|__ro_after_init|__kprobes|$InitAttribute|____cacheline_aligned|____cacheline_aligned_in_smp|____cacheline_internodealigned_in_smp|__weak|__alloc_size\\s*\\(\\s*\\d+\\s*(?:,\\s*\\d+\\s*)?\\)", "", VOCAB_QR, 0, CPV_UPTO(6_1) },
	/* 6.12: __aligned(...) is an attribute too */
	{ "Attribute", "const|volatile|__percpu|__nocast|__safe|__bitwise|__packed__|__packed2__|__naked|__maybe_unused|__always_unused|__noreturn|__used|__cold|__pure|__noclone|__deprecated|__read_mostly|__ro_after_init|__kprobes|$InitAttribute|__aligned\\s*\\(.*\\)|____cacheline_aligned|____cacheline_aligned_in_smp|____cacheline_internodealigned_in_smp|__weak|__alloc_size\\s*\\(\\s*\\d+\\s*(?:,\\s*\\d+\\s*)?\\)", "", VOCAB_QR, 0, CPV_FROM(6_12) },
	{ "Inline", "inline|__always_inline|noinline|__inline|__inline__", "", VOCAB_QR, 0, 0 },
	{ "Member", "->$Ident|\\.$Ident|\\[[^]]*\\]", "", VOCAB_QR, 0, 0 },
	{ "Lval", "$Ident(?:$Member)*", "", VOCAB_QR, 0, 0 },
	{ "Int_type", "(?i)llu|ull|ll|lu|ul|l|u", "", VOCAB_QR, 0, 0 },
	{ "Binary", "(?i)0b[01]+$Int_type?", "", VOCAB_QR, 0, 0 },
	{ "Hex", "(?i)0x[0-9a-f]+$Int_type?", "", VOCAB_QR, 0, 0 },
	{ "Int", "[0-9]+$Int_type?", "", VOCAB_QR, 0, 0 },
	{ "Octal", "0[0-7]+$Int_type?", "", VOCAB_QR, 0, 0 },
	{ "String", "(?:\\b[Lu])?\"[X\\t]*\"", "", VOCAB_QR, 0, 0 },
	{ "Float_hex", "(?i)0x[0-9a-f]+p-?[0-9]+[fl]?", "", VOCAB_QR, 0, 0 },
	{ "Float_dec", "(?i)(?:[0-9]+\\.[0-9]*|[0-9]*\\.[0-9]+)(?:e-?[0-9]+)?[fl]?", "", VOCAB_QR, 0, 0 },
	{ "Float_int", "(?i)[0-9]+e-?[0-9]+[fl]?", "", VOCAB_QR, 0, 0 },
	{ "Float", "$Float_hex|$Float_dec|$Float_int", "", VOCAB_QR, 0, 0 },
	{ "Constant", "$Float|$Binary|$Octal|$Hex|$Int", "", VOCAB_QR, 0, 0 },
	{ "Assignment", "\\*\\=|/=|%=|\\+=|-=|<<=|>>=|&=|\\^=|\\|=|=", "", VOCAB_QR, 0, 0 },
	{ "Compare", "<=|>=|==|!=|<|(?<!-)>", "", VOCAB_QR, 0, 0 },
	{ "Arithmetic", "\\+|-|\\*|\\/|%", "", VOCAB_QR, 0, 0 },
	{ "Operators", "<=|>=|==|!=|=>|->|<<|>>|<|>|!|~|&&|\\|\\||,|\\^|\\+\\+|--|&|\\||$Arithmetic", "", VOCAB_QR, 0, 0 },
	{ "c90_Keywords", "do|for|while|if|else|return|goto|continue|switch|default|case|break", "", VOCAB_QR, 0, 0 },
	{ "NON_ASCII_UTF8", "[\\xC2-\\xDF][\\x80-\\xBF]|\\xE0[\\xA0-\\xBF][\\x80-\\xBF]|[\\xE1-\\xEC\\xEE\\xEF][\\x80-\\xBF]{2}|\\xED[\\x80-\\x9F][\\x80-\\xBF]|\\xF0[\\x90-\\xBF][\\x80-\\xBF]{2}|[\\xF1-\\xF3][\\x80-\\xBF]{3}|\\xF4[\\x80-\\x8F][\\x80-\\xBF]{2}", "", VOCAB_QR, 0, 0 },
	{ "UTF8", "[\\x09\\x0A\\x0D\\x20-\\x7E]|$NON_ASCII_UTF8", "", VOCAB_QR, 0, 0 },
	{ "typeC99Typedefs", "(?:__)?(?:[us]_?)?int_?(?:8|16|32|64)_t", "", VOCAB_QR, 0, 0 },
	{ "typeOtherOSTypedefs", "(?:u_(?:char|short|int|long)|u(?:nchar|short|int|long))", "", VOCAB_QR, 0, 0 },
	{ "typeKernelTypedefs", "(?:(?:__)?(?:u|s|be|le)(?:8|16|32|64)|atomic_t)", "", VOCAB_QR, 0, 0 },
	{ "typeStdioTypedefs", "(?:FILE)", "", VOCAB_QR, 0, 0 },
	{ "typeTypedefs", "(?=[_usiblaF][_isnl1368etI])(?:$typeC99Typedefs\\b|$typeOtherOSTypedefs\\b|$typeKernelTypedefs\\b|$typeStdioTypedefs\\b)", "", VOCAB_QR, 0, 0 },
	{ "zero_initializer", "(?:(?:0[xX])?0+$Int_type?|NULL|false)\\b", "", VOCAB_QR, 0, 0 },
	{ "logFunctions", "(?:printk(?:_ratelimited|_once|_deferred_once|_deferred|)|(?:[a-z0-9]+_){1,2}(?:printk|emerg|alert|crit|err|warning|warn|notice|info|debug|dbg|vdbg|devel|cont|WARN)(?:_ratelimited|_once|)|TP_printk|WARN(?:_RATELIMIT|_ONCE|)|panic|MODULE_[A-Z_]+|seq_vprintf|seq_printf|seq_puts)", "", VOCAB_QR, 0, 0 },
	{ "allocFunctions", "(?:(?:(?:devm_)?(?:kv|k|v)[czm]alloc(?:_array)?(?:_node)?|kstrdup(?:_const)?|kmemdup(?:_nul)?)|(?:\\w+)?alloc_skb(?:_ip_align)?|dma_alloc_coherent)", "", VOCAB_QR, 0, 0 },
	{ "signature_tags", "(?i:Signed-off-by:|Co-developed-by:|Acked-by:|Tested-by:|Reviewed-by:|Reported-by:|Suggested-by:|Assisted-by:|To:|Cc:)", "", VOCAB_QR, 0, 0 },
	/* 6.12: @link_tags as checkpatch.pl joins them ($link_tags_print is
	 * written out where it is used) */
	{ "link_tags_search", "(?:Link:|Closes:)", "", VOCAB_STR, 0, 0 },
	{ "obsolete_archives", "(?xi:freedesktop\\.org\\/archives\\/dri\\-devel|lists\\.infradead\\.org|lkml\\.org|mail\\-archive\\.com|mailman\\.alsa\\-project\\.org\\/pipermail|marc\\.info|ozlabs\\.org\\/pipermail|spinics\\.net)", "", VOCAB_QR, 0, 0 },
	{ "rcu_trace_funcs", "(?x:rcu_read_lock_trace|rcu_read_lock_trace_held|rcu_read_unlock_trace|call_rcu_tasks_trace|synchronize_rcu_tasks_trace|rcu_barrier_tasks_trace|rcu_request_urgent_qs_task)", "", VOCAB_QR, 0, 0 },
	{ "rcu_trace_paths", "(?x:kernel/bpf/|include/linux/bpf|net/bpf/|kernel/rcu/|include/linux/rcu)", "", VOCAB_QR, 0, 0 },
	{ "tracing_logging_tags", "(?i:[=-]*>|<[=-]*|\\[|\\]|start|called|entered|entry|enter|in|inside|here|begin|exit|end|done|leave|completed|out|return|[\\.\\!:\\s]*)", "", VOCAB_QR, 0, 0 },
	{ "C90_int_types", "(?:long\\s+long\\s+int\\s+(?:un)?signed|long\\s+long\\s+(?:un)?signed\\s+int|long\\s+long\\s+(?:un)?signed|(?:(?:un)?signed\\s+)?long\\s+long\\s+int|(?:(?:un)?signed\\s+)?long\\s+long|int\\s+long\\s+long\\s+(?:un)?signed|int\\s+(?:(?:un)?signed\\s+)?long\\s+long|long\\s+int\\s+(?:un)?signed|long\\s+(?:un)?signed\\s+int|long\\s+(?:un)?signed|(?:(?:un)?signed\\s+)?long\\s+int|(?:(?:un)?signed\\s+)?long|int\\s+long\\s+(?:un)?signed|int\\s+(?:(?:un)?signed\\s+)?long|int\\s+(?:un)?signed|(?:(?:un)?signed\\s+)?int)", "", VOCAB_QR, 0, 0 },
	{ "mode_perms_search", "(?:module_param|module_param_(?:array|named|string)|module_param_array_named|debugfs_create_(?:file|u8|u16|u32|u64|x8|x16|x32|x64|size_t|atomic_t|bool|blob|regset32|u32_array)|proc_create(?:_data|)|(?:CLASS|DEVICE|SENSOR|SENSOR_DEVICE|IIO_DEVICE)_ATTR|IIO_DEV_ATTR_[A-Z_]+|SENSOR_(?:DEVICE_|)ATTR_2|SENSOR_TEMPLATE(?:_2|)|__ATTR)", "", VOCAB_STR, 0, 0 },
	{ "mode_perms_world_writable", "S_IWUGO|S_IWOTH|S_IRWXUGO|S_IALLUGO|0[0-7][0-7][2367]", "", VOCAB_QR, 0, 0 },
	{ "single_mode_perms_string_search", "(?:S_IRWXU|S_IRUSR|S_IWUSR|S_IXUSR|S_IRWXG|S_IRGRP|S_IWGRP|S_IXGRP|S_IRWXO|S_IROTH|S_IWOTH|S_IXOTH|S_IRWXUGO|S_IRUGO|S_IWUGO|S_IXUGO)", "", VOCAB_STR, 0, 0 },
	{ "multi_mode_perms_string_search", "${single_mode_perms_string_search}(?:\\s*\\|\\s*${single_mode_perms_string_search})*", "", VOCAB_QR, 0, 0 },
	{ "allowed_asm_includes", "(?:irq|memory|time|reboot)", "", VOCAB_QR, 0, 0 },
	/* $Typecast and friends are compiled once, before any file's words. */
	{ "NonptrType0", "(?:$Modifier0\\s+|const\\s+)*(?:(?:typeof|__typeof__)\\s*\\([^\\)]*\\)|(?:$typeTypedefs\\b)|(?:$typeAll0\\b))(?:\\s+$Modifier0|\\s+const)*", "", VOCAB_QR, 0, 0 },
	{ "Modifier0", "(?:(?=[_cv][_o])(?:$Attribute|$Sparse)|(?x:(?^:fastcall)))", "", VOCAB_QR, 0, 0 },
	{ "Typecast", "\\s*(\\(\\s*$NonptrType0\\s*\\)){0,1}\\s*", "", VOCAB_QR, 0, 0 },
	{ "balanced_parens", "(\\((?:[^\\(\\)]++|(?-1))*\\))", "", VOCAB_QR, 0, 0 },
	{ "LvalOrFunc", "((?:[\\&\\*]\\s*)?$Lval)\\s*($balanced_parens{0,1})\\s*", "", VOCAB_QR, 0, 0 },
	{ "FuncArg", "$Typecast{0,1}($LvalOrFunc|$Constant|$String)", "", VOCAB_QR, 0, 0 },
	{ "declaration_macros", "(?:(?:$Storage\\s+)?(?:[A-Z_][A-Z0-9]*_){0,2}(?:DEFINE|DECLARE)(?:_[A-Z0-9]+){1,6}\\s*\\(|(?:$Storage\\s+)?[HLP]?LIST_HEAD\\s*\\(|(?:SKCIPHER_REQUEST|SHASH_DESC|AHASH_REQUEST)_ON_STACK\\s*\\(|(?:$Storage\\s+)?(?:XA_STATE|XA_STATE_ORDER)\\s*\\()", "", VOCAB_QR, 0, 0 },
	{ "typeAll0", NULL, "", VOCAB_STR, -1, 0 },
	{ "Modifier", NULL, "", VOCAB_DYN, VDYN_MODIFIER, 0 },
	{ "BasicType", NULL, "", VOCAB_DYN, VDYN_BASICTYPE, 0 },
	{ "NonptrType", NULL, "", VOCAB_DYN, VDYN_NONPTRTYPE, 0 },
	{ "NonptrTypeMisordered", NULL, "", VOCAB_DYN, VDYN_NONPTRTYPEMISORDERED, 0 },
	{ "NonptrTypeWithAttr", NULL, "", VOCAB_DYN, VDYN_NONPTRTYPEWITHATTR, 0 },
	{ "Type", NULL, "", VOCAB_DYN, VDYN_TYPE, 0 },
	{ "TypeMisordered", NULL, "", VOCAB_DYN, VDYN_TYPEMISORDERED, 0 },
	{ "Declare", NULL, "", VOCAB_DYN, VDYN_DECLARE, 0 },
	{ "DeclareMisordered", NULL, "", VOCAB_DYN, VDYN_DECLAREMISORDERED, 0 },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const struct vocab *vocab_find_v(const char *name, size_t n, int cpv)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vocab_table); i++) {
		const struct vocab *v = &vocab_table[i];

		if (strlen(v->name) == n && !memcmp(v->name, name, n) &&
		    (cpv < 0 || !v->cpv || (v->cpv & (1u << cpv))))
			return v;
	}
	return NULL;
}

const struct vocab *vocab_find(const char *name, size_t n)
{
	return vocab_find_v(name, n, -1);
}

/* "(?x:  \n" . join("|\n  ", @list) . "\n)" */
static void join_list(struct sbuf *sb, const char *const *a, size_t na,
		      const char *const *b, size_t nb)
{
	size_t i;
	int first = 1;

	sbuf_addstr(sb, "(?x:  \n");
	for (i = 0; i < na; i++) {
		if (!first)
			sbuf_addstr(sb, "|\n  ");
		sbuf_addstr(sb, a[i]);
		first = 0;
	}
	for (i = 0; i < nb; i++) {
		if (!first)
			sbuf_addstr(sb, "|\n  ");
		sbuf_addstr(sb, b[i]);
		first = 0;
	}
	sbuf_addstr(sb, "\n)");
}

static void put3(struct sbuf *sb, const char *a, const char *b, const char *c)
{
	sbuf_addstr(sb, a);
	sbuf_addstr(sb, b);
	sbuf_addstr(sb, c);
}

void vocab_build_types(const char *const *mods, size_t nmods,
		       const char *const *types, size_t ntypes,
		       struct sbuf *out)
{
	static const char *const modifier_list[] = { "(?^:fastcall)" };
	struct sbuf m, all, mis, wattr;
	const char *const *with_attr_a = type_list;
	int i;

	sbuf_init(&m, 1 << 20);
	sbuf_init(&all, 1 << 20);
	sbuf_init(&mis, 1 << 16);
	sbuf_init(&wattr, 1 << 16);
	join_list(&m, modifier_list, 1, mods, nmods);
	join_list(&all, type_list, ARRAY_SIZE(type_list), types, ntypes);
	join_list(&mis, type_list_misordered, ARRAY_SIZE(type_list_misordered),
		  NULL, 0);
	join_list(&wattr, with_attr_a, ARRAY_SIZE(type_list),
		  type_list_with_attr_extra, ARRAY_SIZE(type_list_with_attr_extra));

	for (i = 0; i < VDYN__COUNT; i++)
		sbuf_reset(&out[i]);

	/* (sbuf_addf's %s copies a byte at a time: these are long) */
	put3(&out[VDYN_MODIFIER], "(?:(?=[_cv][_o])(?:$Attribute|$Sparse)|", m.buf, ")");
	put3(&out[VDYN_BASICTYPE], "(?:$typeTypedefs\\b)|(?:", all.buf, "\\b)");
	put3(&out[VDYN_NONPTRTYPE],
	     "(?:$Modifier\\s+|const\\s+)*(?:(?:typeof|__typeof__)\\s*\\([^\\)]*\\)|(?:$typeTypedefs\\b)|(?:",
	     all.buf, "\\b))(?:\\s+$Modifier|\\s+const)*");
	put3(&out[VDYN_NONPTRTYPEMISORDERED],
	     "(?:$Modifier\\s+|const\\s+)*(?:(?:", mis.buf,
	     "\\b))(?:\\s+$Modifier|\\s+const)*");
	put3(&out[VDYN_NONPTRTYPEWITHATTR],
	     "(?:$Modifier\\s+|const\\s+)*(?:(?:typeof|__typeof__)\\s*\\([^\\)]*\\)|(?:$typeTypedefs\\b)|(?:",
	     wattr.buf, "\\b))(?:\\s+$Modifier|\\s+const)*");
	sbuf_addstr(&out[VDYN_TYPE],
		    "$NonptrType(?:(?:\\s|\\*|\\[\\])+\\s*const|(?:\\s|\\*\\s*(?:const\\s*)?|\\[\\])+|(?:\\s*\\[\\s*\\])+){0,4}(?:\\s+$Inline|\\s+$Modifier)*");
	sbuf_addstr(&out[VDYN_TYPEMISORDERED],
		    "$NonptrTypeMisordered(?:(?:\\s|\\*|\\[\\])+\\s*const|(?:\\s|\\*\\s*(?:const\\s*)?|\\[\\])+|(?:\\s*\\[\\s*\\])+){0,4}(?:\\s+$Inline|\\s+$Modifier)*");
	sbuf_addstr(&out[VDYN_DECLARE], "(?:$Storage\\s+(?:$Inline\\s+)?)?$Type");
	sbuf_addstr(&out[VDYN_DECLAREMISORDERED],
		    "(?:$Storage\\s+(?:$Inline\\s+)?)?$TypeMisordered");

	sbuf_release(&m);
	sbuf_release(&all);
	sbuf_release(&mis);
	sbuf_release(&wattr);
}

/* The type list before any file's words, for $NonptrType0. */
void vocab_type_all0(struct sbuf *out);
void vocab_type_all0(struct sbuf *out)
{
	join_list(out, type_list, ARRAY_SIZE(type_list), NULL, 0);
}

int vocab_may_hold_modifier(const char *s)
{
	return strstr(s, "__") || strstr(s, "const") ||
	       strstr(s, "volatile") || strstr(s, "fastcall");
}

int vocab_may_hold_misordered(const char *s, int c90)
{
	return strstr(s, "signed") || strstr(s, "short") ||
	       (c90 && (strstr(s, "int") || strstr(s, "long")));
}

static int in_set(int c, const char *set)
{
	return c && strchr(set, c);
}

static int is_word_byte(int c)	/* \w */
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* w[0, n) ends in _t, _handler or _handler_fn */
static int type_suffix(const char *w, size_t n)
{
	return (n >= 2 && !memcmp(w + n - 2, "_t", 2)) ||
	       (n >= 8 && !memcmp(w + n - 8, "_handler", 8)) ||
	       (n >= 11 && !memcmp(w + n - 11, "_handler_fn", 11));
}

int vocab_may_start_type(const char *s)
{
	int a = (unsigned char)s[0], b = a ? (unsigned char)s[1] : 0;
	const char *p = s;

	/* the look-aheads' starts: keep in step with the lists above */
	if ((in_set(a, "_cv") && in_set(b, "_o")) ||		/* $Attribute|$Sparse */
	    (a == 'f' && b == 'a') || (a == 't' && b == 'y') ||	/* fastcall, typeof */
	    (in_set(a, "_usiblaF") && in_set(b, "_isnl1368etI")) ||
	    (in_set(a, "vcsuilfdbe") && in_set(b, "ohinlt")) ||
	    (in_set(a, "cislu") && in_set(b, "hnoi")))
		return 1;
	/* an identifier's words, joined by ##: one ending _t, _handler... */
	for (;;) {
		const char *w = p;

		while (is_word_byte((unsigned char)*p))
			p++;
		if (p == w)
			return 0;
		if (type_suffix(w, (size_t)(p - w)))
			return 1;
		while (vocab_is_space((unsigned char)*p))
			p++;
		if (p[0] != '#' || p[1] != '#')
			return 0;
		p += 2;
		while (vocab_is_space((unsigned char)*p))
			p++;
	}
}
