/*
 * Reply classification: tags from a reply's own text.
 *
 * Three stages, each linear in the body: lines are sorted into own text,
 * quotes, attributions, diff, code and signature; own prose is cut into
 * words and clauses (a clause ends at , ; : ( ) and a sentence at . ! ?);
 * then every rule of rule_table runs on every clause or own line.  Rules
 * are data: a tag, a name `show` prints, and a word pattern (see
 * pat_match) with a list of words that veto it anywhere in the clause.
 */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mlq-int.h"

/* Evidence is cut past this many characters (INTERFACE.md). */
#define MLQ__EVIDENCE_MAX 200

/* ---- names ------------------------------------------------------------- */

static const char *const tag_names[MLQ_TAG_COUNT] = {
	"nack",
	"ack",
	"reviewed",
	"tested",
	"question",
	"changes-requested",
	"applied",
	"revert",
};

static const char *const state_names[] = {
	[MLQ_STATE_NONE] = "",
	[MLQ_STATE_PENDING] = "pending",
	[MLQ_STATE_QUESTIONED] = "questioned",
	[MLQ_STATE_REVIEWED] = "reviewed",
	[MLQ_STATE_CHANGES] = "changes-requested",
	[MLQ_STATE_SUPERSEDED] = "superseded",
	[MLQ_STATE_APPLIED] = "applied",
	[MLQ_STATE_NACKED] = "nacked",
	[MLQ_STATE_REVERTED] = "reverted",
	[MLQ_STATE_MERGED] = "merged",
};

const char *
mlq_tag_name(unsigned tag)
{
	size_t i;

	for (i = 0; i < MLQ_TAG_COUNT; i++)
		if (tag == 1u << i)
			return tag_names[i];
	return NULL;
}

unsigned
mlq_tag_from_name(const char *name)
{
	size_t i;

	for (i = 0; i < MLQ_TAG_COUNT; i++)
		if (strcmp(name, tag_names[i]) == 0)
			return 1u << i;
	return 0;
}

const char *
mlq_state_name(enum mlq_state s)
{
	if (s <= MLQ_STATE_NONE || (size_t)s >= MLQ__ARRAY_SIZE(state_names))
		return NULL;
	return state_names[s];
}

enum mlq_state
mlq_state_from_name(const char *name)
{
	size_t i;

	for (i = 1; i < MLQ__ARRAY_SIZE(state_names); i++)
		if (strcmp(name, state_names[i]) == 0)
			return (enum mlq_state)i;
	return MLQ_STATE_NONE;
}

/* ---- the rules --------------------------------------------------------- */

struct cls_line {
	const char *s; /* '\r' and trailing blanks removed */
	size_t len;
	int kind;
};

enum {
	LINE_OWN,
	LINE_BLANK,
	LINE_QUOTE,
	LINE_ATTRIB,
	LINE_DIFF,
	LINE_CODE,
	LINE_DROP, /* signature, forwarded original, list footer */
};

struct cls_tok {
	const char *s;
	size_t len;
	size_t line;
};

struct cls_clause {
	size_t begin, end; /* tokens [begin, end) */
	size_t sent;	   /* first token of its sentence */
	size_t qline;	   /* line of the closing '?' */
	bool question;	   /* ends with '?' */
	bool colon;	   /* ends with ':', above what it introduces */
	bool paren;	   /* opens after '(': an aside */
};

struct cls_rule {
	unsigned tag;
	const char *name;
	/* Exactly one of pat, clause_fn, line_fn. */
	const char *pat;
	bool (*clause_fn)(const struct cls_tok *, const struct cls_clause *);
	bool (*line_fn)(const char *, size_t);
	/*
	 * Words that cancel a match anywhere in the clause; "<a|b c|d"
	 * cancels on a or b before the match ("I don't think a NACK ...")
	 * and on c or d anywhere.
	 */
	const char *veto;
	bool others_only; /* never from the submitter */
	const char *what;
};

/*
 * Word lists shared by several rules ('|'-separated, as in patterns).
 * A refusal ("I don't think a NACK is warranted") or a condition ("once
 * this is applied") cancels the clause.
 */
#define NEGATION                                                               \
	"<not|no|never|without|nor|cannot|can't|don't|doesn't|didn't|isn't|"   \
	"wasn't|won't|wouldn't|shouldn't|aren't|hardly|if|unless|whether|why"
#define CONDITION                                                              \
	"<if|once|when|whenever|after|before|until|unless|whether|should|"     \
	"could|would|can|must|might|may|be|not|never|cannot|can't|don't|"      \
	"doesn't|didn't|isn't|wasn't|won't|hasn't|haven't|weren't|aren't|"     \
	"please|ping|sure|wonder|wondering "                                   \
	"tested|boot|boots|booted|works|cleanly|locally|top|compile|"          \
	"compiles|compiled|build|builds|problem|issue|still|fine|ok|okay|"     \
	"compare|comparing|try|trying|reproduce|where"
/* Words after NACK that make it the protocol's NACK, not a verdict. */
#define NACK_TECH                                                              \
	"packet~|frame~|bit|bits|response~|handl~|condition~|signal~|"         \
	"interrupt~|irq~|status|counter~|timeout~|event~|pid|token~|state~|"   \
	"field~|register~|reg|message~|is|was|are|were|will|would|can|"        \
	"could|should|has|means|happens|sent|received|path|case|cases|flag~|"  \
	"error~|reply|replies|code~|value~|and|or"
/* Words a request to change a patch is built on. */
#define CHANGE_VERB                                                            \
	"resend|respin|repost|rebase|fix|split|update|change|rework|address|"  \
	"move|rename|correct|squash|redo|reword|rewrite|"                      \
	"remove|add|use|document|improve|clean|cleanup|refactor|"              \
	"convert|adjust|avoid|combine|fold|separate|reorder|replace|"          \
	"reformat|align|mention|include|merge|put|make|rephrase|restructure|"  \
	"sort|simplify|switch|fixup|amend|expand|extend|reduce|limit|"         \
	"handle|keep|return|sign|base|drop|delete|factor|inline|unify|"        \
	"revert|wrap|annotate|export|initialize|initialise|send"

/* What a short "Series applied" may name. */
#define APPLIED_WHAT                                                           \
	"the|this|whole|entire|both|all|patch~|series|set|patchset|i|i've|we|" \
	"we've|also|now|just|already|it|they|these|everything|pull|request"

/*
 * Pattern syntax: words separated by one space, each matching one word of
 * the clause, case-insensitively.  "a|b" alternatives, "x~" a prefix,
 * "x?" optional, "*" any word, "!a|b" the next word is none of these (or
 * the clause ends), a leading "^" anchors at the clause start and a
 * trailing "$" at its end.  Classes: @nack (NACK, NAK, NACKed, NAKing...),
 * @v (v2, V3), @change (CHANGE_VERB), @tree (net-next, for-5.13, ...).
 */
static bool cls_question(const struct cls_tok *, const struct cls_clause *);
static bool cls_nack_trailer(const char *, size_t);
static bool cls_ack_trailer(const char *, size_t);
static bool cls_reviewed_trailer(const char *, size_t);
static bool cls_tested_trailer(const char *, size_t);
static bool cls_how_about(const struct cls_tok *, const struct cls_clause *);
static bool cls_text_please(const struct cls_tok *,
    const struct cls_clause *);
static bool cls_maybe_name(const struct cls_tok *, const struct cls_clause *);
static bool cls_consider(const struct cls_tok *, const struct cls_clause *);
static bool cls_you_want(const struct cls_tok *, const struct cls_clause *);
static bool cls_modal_request(const struct cls_tok *, const struct cls_clause *);
static bool cls_substitute_line(const char *, size_t);
static bool cls_proposal(const struct cls_tok *, const struct cls_clause *);
static bool cls_imperative(const struct cls_tok *, const struct cls_clause *);
static bool cls_request_question(const struct cls_tok *,
    const struct cls_clause *);
static bool cls_please(const struct cls_tok *, const struct cls_clause *);

/* Rules that hold only right under a quoted line of the diff. */
#define RULE_WHAT_ABOUT_CODE "changes-what-about"
#define RULE_NEED_ON_CODE    "changes-need-question"
#define RULE_NOT_NEEDED_ON_CODE "changes-not-needed"

static const struct cls_rule rule_table[] = {
	/* nack */
	{ MLQ_TAG_NACK, "nack-trailer", NULL, NULL, cls_nack_trailer, NULL,
	    false, "a Nacked-by:/NAKed-by: line" },
	{ MLQ_TAG_NACK, "nack-verdict", "^ @nack !" NACK_TECH, NULL, NULL,
	    NEGATION, false,
	    "NACK opening a clause: \"NACK.\", \"Nack for this\"" },
	{ MLQ_TAG_NACK, "nack-first-person",
	    "i|i'm|i'd|i'll|we|we're|so|hence|thus|therefore|my|our|firm|strong|"
	    "strongly|hard|big|definite|definitely|final|hereby|also @nack "
	    "!" NACK_TECH,
	    NULL, NULL, NEGATION, false,
	    "\"I'm NAKing this\", \"has my nack\"" },
	{ MLQ_TAG_NACK, "nack-have-to",
	    "have|going|need|want|got|like|'d to @nack !" NACK_TECH, NULL, NULL,
	    NEGATION, false, "\"I have to nack this\"" },
	{ MLQ_TAG_NACK, "nack-is-a",
	    "that's|it's|is|this's a|an "
	    "firm|strong|hard|big|definite|clear? @nack !" NACK_TECH,
	    NULL, NULL, NEGATION, false, "\"that's a NACK\"" },
	{ MLQ_TAG_NACK, "nack-consider",
	    "consider~ this|it|that|these|the patch|series? a|an? @nack", NULL,
	    NULL,
	    NEGATION, false, "\"consider this NACKed\"" },
	{ MLQ_TAG_NACK, "nack-from-me",
	    "@nack from|for|on me|this|that|it|these|my|the", NULL, NULL,
	    NEGATION, false, "\"Consider this a NAK from me\"" },
	{ MLQ_TAG_NACK, "nack-said",
	    "say|but|still|so|then|obviously|sorry|definitely|hence @nack $",
	    NULL, NULL, NEGATION, false,
	    "\"I would say NAK.\", \"Sorry but NACK.\"" },
	/* ack, reviewed, tested: a trailer, never "Ack." in prose */
	{ MLQ_TAG_ACK, "ack-trailer", NULL, NULL, cls_ack_trailer, NULL, true,
	    "an Acked-by: line (also Acked-for-MFD-by:)" },
	{ MLQ_TAG_REVIEWED, "reviewed-trailer", NULL, NULL,
	    cls_reviewed_trailer, NULL, true, "a Reviewed-by: line" },
	{ MLQ_TAG_TESTED, "tested-trailer", NULL, NULL, cls_tested_trailer,
	    NULL, true, "a Tested-by: line" },
	/* question */
	{ MLQ_TAG_QUESTION, "question-mark", NULL, cls_question, NULL, NULL,
	    true, "a sentence of prose ending in '?'" },
	{ MLQ_TAG_QUESTION, "question-wondering",
	    "^ so|but|and|also|just|though|still? i|i'm|i've "
	    "am|was|been? also|just|still? wondering|curious "
	    "if|whether|what|why|how|when|where|which|who",
	    NULL, NULL, "anyone|anybody|everyone|everybody|myself|aloud", true,
	    "\"I was curious whether this was found by code inspection\": a "
	    "question put without a question mark" },
	/* changes-requested */
	{ MLQ_TAG_CHANGES, MLQ__RULE_PLEASE,
	    "please|pls|kindly also|just|then|do|try? and|to? @change", NULL,
	    NULL,
	    "no|my|nothing|needn't|i'll|feel|replying", true,
	    "\"please fix\", \"please send a v2\"" },
	{ MLQ_TAG_CHANGES, MLQ__RULE_CAN_YOU,
	    "can|could|would|will you please|kindly|also|just? also|just? "
	    "@change",
	    NULL, NULL, "no|my|nothing|tag|tags|reviewed-by|acked-by|ack", true,
	    "\"can you split this\"" },
	{ MLQ_TAG_CHANGES, MLQ__RULE_YOU_SHOULD,
	    "you should|need|must|have to? also? @change", NULL, NULL,
	    "no|not|don't|if|nothing|my", true, "\"you need to rebase\"" },
	{ MLQ_TAG_CHANGES, "changes-new-version",
	    "send|post|submit|spin|resend|respin|repost a|an? "
	    "new|updated|fresh|next|another? "
	    "@v|version|revision|respin|spin|iteration",
	    NULL, NULL, "i|i'll|i'm|we|we'll|will|i've|i'd|no|not|my", true,
	    "\"send a v2\"" },
	{ MLQ_TAG_CHANGES, "changes-version-please",
	    "@v|version|respin|resend please", NULL, NULL, "no|not", true,
	    "\"v2 please\"" },
	{ MLQ_TAG_CHANGES, "changes-next-version",
	    "in|for|with|on the? next|a "
	    "@v|version|revision|spin|iteration|respin",
	    NULL, NULL, "i|i'll|i'm|we|we'll|i've|no|not", true,
	    "\"... in the next version\"" },
	{ MLQ_TAG_CHANGES, "changes-when-you",
	    "when|before|if you "
	    "respin|resend|repost|rework|update|rebase|send|fix~",
	    NULL, NULL, "no|not|don't|my", true, "\"when you respin, ...\"" },
	{ MLQ_TAG_CHANGES, "changes-needs",
	    "needs|need to? be? fixed|reworked|split|updated|rebased|changed|"
	    "addressed|redone|respun|resent|squashed|reordered|moved|"
	    "documented|fixing|rework|rebasing|splitting|updating|a|another|"
	    "more|some "
	    "@v|respin|rebase|rework|resend|work|changes|spin|fixing?",
	    NULL, NULL, "no|not|don't|doesn't|if|i|i'll|we", true,
	    "\"this needs to be fixed\", \"needs a v2\"" },
	{ MLQ_TAG_CHANGES, "changes-separate-patch",
	    "should|must|needs|need|please be? in? a|its|their "
	    "separate|own patch|commit",
	    NULL, NULL, "no|not|i|i'll|we|we'll", true,
	    "\"this should be a separate patch\"" },
	{ MLQ_TAG_CHANGES, "changes-split",
	    "split this|it|them|these|the patch|change|series? into|up", NULL,
	    NULL, "no|not|i|i'll|we|we'll|i've|don't", true,
	    "\"split this into two\"" },
	{ MLQ_TAG_CHANGES, "changes-does-not-apply",
	    "doesn't|does|do|don't|did|didn't|won't|no not|longer? "
	    "apply|applies",
	    NULL, NULL,
	    "if|whether|i'll|when|unless|please|pls|argument~|rule~|reason~|"
	    "concern~|objection~",
	    true,
	    "\"does not apply\": a rebase is needed" },
	{ MLQ_TAG_CHANGES, MLQ__RULE_PLEASE_DO, NULL, cls_please, NULL,
	    "no|my|nothing|needn't|i'll|feel|replying|me|us", true,
	    "\"Please only print this if ...\": please and a verb" },
	{ MLQ_TAG_CHANGES, "changes-please-dont",
	    "^ please|pls don't|do not? @change|do|add|use|introduce|call|"
	    "open-code|hardcode|hard-code|duplicate|copy|expose",
	    NULL, NULL, "me|my|us|mouth", true, "\"Please don't do this.\"" },
	{ MLQ_TAG_CHANGES, "changes-modal", NULL, cls_modal_request, NULL,
	    NULL, true,
	    "\"X should be Y\", \"you need to\", \"this has to go\": a "
	    "sentence of obligation, not about the writer" },
	{ MLQ_TAG_CHANGES, "changes-prefer",
	    "i|i'd|we|we'd|would|do|really|rather|also|strongly "
	    "suggest~|prefer|recommend|propose|rather",
	    NULL, NULL, "<you|they|he|she not|don't|wouldn't", true,
	    "\"I'd suggest\", \"I would prefer\", \"I'd rather\"" },
	{ MLQ_TAG_CHANGES, "changes-better",
	    "be|it's|it'd better|nicer|cleaner|best|preferable|simpler|clearer|"
	    "safer|neater",
	    NULL, NULL, "not|no|nothing", true,
	    "\"it would be better to\", \"it'd be best\"" },
	{ MLQ_TAG_CHANGES, "changes-think-better",
	    "think|find|consider it|that better|best|preferable|cleaner|"
	    "simpler to",
	    NULL, NULL, "not|don't|<if", true,
	    "\"I think it better to drop it until there is a user\"" },
	{ MLQ_TAG_CHANGES, "changes-maybe",
	    "maybe|perhaps|possibly you|we could|can|should|might|want|"
	    "need|just",
	    NULL, NULL, "not|i|take|see|discuss|talk|wait|test|try|debug", true,
	    "\"maybe we could omit ...\"" },
	{ MLQ_TAG_CHANGES, "changes-lets",
	    "^ so|then|and|but|also|maybe|perhaps|instead|ok|okay? let's|lets "
	    "just|simply|instead|rather|also|not|then? @change",
	    NULL, NULL, "<if|whether", true,
	    "\"let's just keep that time as a number of seconds\"" },
	{ MLQ_TAG_CHANGES, "changes-like-to",
	    "i'd|i kinda|really|rather|much|still? like|prefer|want to "
	    "keep|see|have|use|avoid",
	    NULL, NULL, "<if|whether|not|don't results|numbers|data|"
	    "benchmarks|output|trace|traces|logs|log", true,
	    "\"I'd kinda like to keep that feature of this code.\"" },
	{ MLQ_TAG_CHANGES, "changes-text-please", NULL, cls_text_please, NULL,
	    NULL, true,
	    "\"Much more detail on the overall objective ..., please?\"" },
	{ MLQ_TAG_CHANGES, "changes-text-can",
	    "can|could|should the|this|your patch|commit? description|message|"
	    "changelog|log|comment mention|provide|explain|include|say|"
	    "describe|note|state|give",
	    NULL, NULL, NULL, true,
	    "\"Can the patch description provide some rationale ...\"" },
	{ MLQ_TAG_CHANGES, "changes-proposal", NULL, cls_proposal, NULL, NULL,
	    true, "\"Maybe:\" above a proposed text" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question",
	    "^ would|could you like|mind|consider", NULL, NULL, "me|us", true,
	    "\"Would you like to avoid ...?\": a request as a question" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question", NULL, cls_how_about,
	    NULL, NULL, true,
	    "\"How about using ...?\" (\"What about the bootloader?\" "
	    "asks)" },
	{ MLQ_TAG_CHANGES, RULE_WHAT_ABOUT_CODE,
	    "^ so|then|and|but|also|maybe|perhaps|or? how|what about", NULL,
	    NULL, NULL, true,
	    "\"What about the non-unwind version?\" under a quoted hunk: "
	    "have it changed too" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question",
	    "shouldn't|wouldn't it|this|that|they $", NULL, NULL, NULL,
	    true, "\"... the generic functions, shouldn't it?\"" },
	{ MLQ_TAG_CHANGES, "changes-better-would",
	    "^ better|nicer|cleaner|simpler|safer would|to be|do|use", NULL,
	    NULL, NULL, true, "\"Better would be: ...\"" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question",
	    "^ how do you think", NULL, NULL, NULL, true,
	    "\"How do you think about ...?\"" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question",
	    "^ is|isn't it|this worth|better", NULL, NULL, NULL, true,
	    "\"Is it worth including ...?\"" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question",
	    "^ would|wouldn't it make|be sense|better|nicer|cleaner|simpler|"
	    "easier|possible",
	    NULL, NULL, NULL, true, "\"would it make sense to ...?\"" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question",
	    "^ shouldn't|wouldn't|can't|couldn't|mustn't "
	    "this|that|it|we|you|they|there|the|these|those",
	    NULL, NULL, NULL, true, "\"Shouldn't that rather be ...?\"" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question",
	    "^ so|but|and|then? why can't|couldn't !i|i'm * *? *? *? "
	    "just|simply|use|be|call|do", NULL, NULL, NULL,
	    true, "\"Why can't kmem_cache_alloc_lru() be a simple wrapper "
	    "...?\": how it could be done instead" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question",
	    "^ so|but|and|then? what's|what speaks|wrong against|with just|"
	    "simply", NULL, NULL, NULL, true,
	    "\"What speaks against just moving the dput out ...?\", \"What's "
	    "wrong with simply ...?\"" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question", "^ why not", NULL, NULL,
	    NULL, true, "\"Why not ...?\"" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question",
	    "^ so|then|and|but|or? maybe|perhaps we|you just|also|then? "
	    "@change|try|drop|call|name|move|put|mark|pass|set|leave|skip",
	    NULL, NULL, NULL, true,
	    "\"Maybe we try to remove suid once more at the end ...?\"" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question", NULL, cls_maybe_name,
	    NULL, NULL, true, "\"Maybe bvec_set_zero_page()?\"" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question",
	    "^ so|then|and|but|also? maybe|perhaps|possibly just|also? "
	    "@change|drop|call|name|move|show|start|put|mark|check|print|pass|"
	    "set|go|stick|leave|skip|try|split|lowercase|uppercase",
	    NULL, NULL, NULL, true, "\"Perhaps add an entry for it?\"" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question",
	    "^ so|then|and|but|also? can|could we|you just|simply|instead|"
	    "rather|not|also|perhaps|maybe",
	    NULL, NULL,
	    "test|try|verify|confirm|review|ack|share|tell|elaborate|explain|"
	    "clarify|describe|help|point",
	    true,
	    "\"Can we just call this dma_mask?\"" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question",
	    "^ so|then|and|but|also? shouldn't|wouldn't|can't|couldn't "
	    "this|that|it|we|you|they|there|the|these|those",
	    NULL, NULL, NULL, true, "\"So shouldn't we fix the drivers first?\"" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question",
	    "^ isn't|wasn't this|that|it what", NULL, NULL, NULL, true,
	    "\"Isn't this what rhashtable is for?\"" },
	{ MLQ_TAG_CHANGES, "changes-worth",
	    "worth adding|calling|mentioning|noting|documenting|checking|"
	    "using|splitting|moving|making|doing|having|keeping|dropping|"
	    "removing|fixing|changing|explaining|considering|trying",
	    NULL, NULL, "not|no|<if|whether", true,
	    "\"it seems worth calling out that case\"" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question",
	    "^ so|then|but|and? why don't|not|didn't you|we just|simply? "
	    "@change",
	    NULL, NULL, NULL, true, "\"Why don't you use ...?\"" },
	{ MLQ_TAG_CHANGES, "changes-can",
	    "^ can|could @change", NULL, NULL, NULL, true,
	    "\"can reduce it a bit?\"" },
	{ MLQ_TAG_CHANGES, "changes-you-can",
	    "^ i|so|then|and|but|also|now? think|guess|believe? you|you'd "
	    "can|could just|also|simply|probably|then|now|instead|easily? "
	    /* Not "add" nor "send": "You can add this to the series" gives
	     * a tag, "You can send v2 on Monday" a date. */
	    "drop|remove|delete|use|move|rename|fold|squash|simplify|replace|"
	    "inline|combine|split|avoid|skip|return|call|pass|check|limit|put|"
	    "make|switch|convert|reuse|get|open-code|kill|merge|reduce|"
	    "initialize|initialise|document|mention|export|mark|declare|wrap|"
	    "reorder|unify|factor|fix|change|update|rework|rewrite *",
	    NULL, NULL, "<if|when|whether|how|what|that|which my|ignore|me|us|"
	    "if|want|wish|whatever|prefer|like|tag|tags|reviewed-by|acked-by|"
	    "tested-by|ack|rb|r-b|trailer|trailers",
	    true, "\"I think you can remove this check as well\"" },
	{ MLQ_TAG_CHANGES, "changes-cannot-accept",
	    "i|we cannot|can't|won't|couldn't|wouldn't "
	    "accept|take|merge|apply|queue|ack|pull *",
	    NULL, NULL, "<if|unless|until|whether yet|now|today|week|window|"
	    "rc|release|tomorrow|until|before|after|vacation|travelling|"
	    "traveling|reproduce|test|tell|say|see|find|help", true,
	    "\"I cannot accept a pr_warn(), even a rate limited one.\": not "
	    "as it is" },
	/* What the writer would do in the author's place: "I would
	 * rearrange the AT_* flags namespace this way", "I'd just drop this
	 * hunk". */
#define I_WOULD_LEAD                                                           \
	"^ so|also|personally|honestly|seriously|frankly|but|and|then|"        \
	"instead|otherwise|here? "
#define I_WOULD_VERB                                                           \
	"probably|just|rather|also|personally|simply|instead|then? "           \
	"@change|rearrange|declare|cache|define|protect|lock|guard"
#define I_WOULD_VETO                                                           \
	"<if|when|whether not|never|have|been|follow-up|followup|later|"       \
	"myself|me|us|our|i'll|odds|money|bet"
	{ MLQ_TAG_CHANGES, "changes-i-would", I_WOULD_LEAD "i'd " I_WOULD_VERB,
	    NULL, NULL, I_WOULD_VETO, true, "\"I'd just drop this hunk\"" },
	{ MLQ_TAG_CHANGES, "changes-i-would",
	    I_WOULD_LEAD "i would " I_WOULD_VERB, NULL, NULL, I_WOULD_VETO,
	    true, "\"I would rearrange the AT_* flags namespace this way\"" },
	{ MLQ_TAG_CHANGES, MLQ__RULE_ASK_YOU,
	    "ask|like|want|prefer|expect|asking|suggest you to", NULL, NULL,
	    "not|don't", true, "\"I'd ask you to rebase\"" },
#define NIT_LEAD                                                               \
	"small|minor|tiny|one|a|another|also|just|some|last|final|other|"     \
	"style|stylistic|coding|cosmetic|formatting|whitespace|naming|"       \
	"subject|commit|changelog|message|comment|doc|kdoc|spelling"
	/* "A small nit:", "Style nit:", "Commit message nit:". */
	{ MLQ_TAG_CHANGES, "changes-nit",
	    "^ " NIT_LEAD "? " NIT_LEAD "? " NIT_LEAD "? nit|nits|nitpick",
	    NULL, NULL, NULL, true, "\"Nit: ...\", \"Style nit: ...\"" },
	/* One lead word: not "just a typo, I meant 5.4-rc", the writer's
	 * own slip. */
	{ MLQ_TAG_CHANGES, "changes-nit",
	    "^ small|minor|tiny|one|a|another|also|just|some? "
	    "typo|typos|spelling|grammar",
	    NULL, NULL, NULL, true, "\"typo: ...\"" },
	{ MLQ_TAG_CHANGES, "changes-forgot",
	    "forgot|forget|forgotten|missed to? "
	    "@change|update|updating|adding|the|a|to",
	    NULL, NULL, "i|i've|not", true, "\"you forgot to update\"" },
	{ MLQ_TAG_CHANGES, "changes-not-addressed",
	    "has|have|was|were not been? addressed|incorporated|fixed|done",
	    NULL, NULL, "<if|unless|whether", true, "\"feedback ... has not been addressed\"" },
	{ MLQ_TAG_CHANGES, RULE_NOT_NEEDED_ON_CODE,
	    "you|we don't|do|doesn't not? need "
	    "this|these|that|those|the|any|it|them",
	    NULL, NULL, "<if|whether|i resend|respin|repost|worry|anything|"
	    "bother|ack|reviewed-by|acked-by|tested-by|review|test", true,
	    "\"So you don't need these changes.\"" },
	{ MLQ_TAG_CHANGES, "changes-no-tag",
	    "not|don't|doesn't think? this|it warrant|warrants|need|needs|"
	    "deserve|deserves a|an|the? fixes|fixes:|cc:|stable",
	    NULL, NULL, "<if|whether", true,
	    "\"I still don't think this warrants a Fixes tag\"" },
	{ MLQ_TAG_CHANGES, RULE_NEED_ON_CODE,
	    "^ so|and|but|also|then|hmm? do|does we|you|it|this|that "
	    "really|even|actually|still|ever|absolutely? need",
	    NULL, NULL, "to", true,
	    "\"Do we need the #ifdefery here?\" under a quoted hunk: drop it" },
	{ MLQ_TAG_CHANGES, RULE_NEED_ON_CODE,
	    "^ so|and|but|also|then|hmm? is|are this|that|it|these|those|both|"
	    "the * *? really|even|actually|still|ever|absolutely? "
	    "needed|necessary|required $",
	    NULL, NULL, NULL, true,
	    "\"Are both needed?\", \"Is this check really necessary?\" under a "
	    "quoted hunk" },
	{ MLQ_TAG_CHANGES, "changes-suggest-question",
	    "^ so|and|but|then|hmm? don't|doesn't we|you|it|this|that "
	    "also|still|then|really? need|want *",
	    NULL, NULL, NULL, true,
	    "\"Don't we also need to call kfree() on 'p' in this case?\"" },
	{ MLQ_TAG_CHANGES, RULE_NEED_ON_CODE,
	    "^ so|and|but|then? what's|what is|'s? the point|use of|in",
	    NULL, NULL, NULL, true,
	    "\"What's the point of this check?\" under a quoted hunk" },
	{ MLQ_TAG_CHANGES, "changes-missing",
	    "is|are|seems|still missing", NULL, NULL, "<if|whether|when|unless",
	    true,
	    "\"a Fixes: tag is missing\"" },
	{ MLQ_TAG_CHANGES, "changes-wrong",
	    "wrong approach|way|place|direction|layer|fix|solution", NULL,
	    NULL, "not|no|nothing", true, "\"the wrong approach\"" },
	{ MLQ_TAG_CHANGES, "changes-not-right",
	    "not the|a correct|right|proper|preferred way|approach|place|fix|"
	    "solution",
	    NULL, NULL, "<if|whether|sure|i'm|know", true,
	    "\"This is not the correct way to submit patches\"" },
	{ MLQ_TAG_CHANGES, "changes-instead",
	    "use|call|do|return|pass|take|check|keep|go * *? *? *? instead",
	    NULL, NULL, "i|i'll|we'll", true, "\"use X instead\"" },
	{ MLQ_TAG_CHANGES, "changes-to-improve",
	    "something|things|more|room|bits to|for improve|improvement|fix|"
	    "address|change",
	    NULL, NULL, "no|nothing|not", true,
	    "\"Yet something to improve:\" (a build robot's report)" },
	{ MLQ_TAG_CHANGES, "changes-can-be",
	    "this|it|that|these|those|which can|could "
	    "probably|just|simply|also|easily|now|then? be "
	    "!called|used|seen|found|reached|triggered|hit|null|zero|true|"
	    "false|a|an|the|done|because|in|on|at|set|changed|different|"
	    "applied|merged|queued|racy|fine|ok|okay|problematic|tricky|"
	    "hard|difficult|expensive|slow|large|big|small|negative|freed|"
	    "invalid|valid|empty|missing|wrong|right|correct|there|here|true",
	    NULL, NULL, "<if|whether|when|not|how|why|what", true,
	    "\"This can probably be __initdata\"" },
	{ MLQ_TAG_CHANGES, "changes-with-these",
	    "^ with this|that|these|those|the above? "
	    "change|changes|fix|fixes|nit|nits|comment|comments $",
	    NULL, NULL, NULL, true,
	    "\"With these changes:\" above a trailer" },
	{ MLQ_TAG_CHANGES, "changes-best-way",
	    "the|a best|better|right|preferred|cleaner|simpler|easiest|"
	    "simplest|cleanest way|approach|option|solution|fix",
	    NULL, NULL, "not|no|<if|whether", true,
	    "\"... is the best way to go\"" },
	{ MLQ_TAG_CHANGES, "changes-would-help",
	    "^ but|and|so|yet|though|also|yes|actually|i|i'm? "
	    "think|guess|sure|still? it? would|might|could "
	    "also|probably|really|certainly|even|still? "
	    "be great|nice|helpful|useful|good|worthwhile to|if "
	    "you? could|can|would? also|just|perhaps? "
	    "@change|explain|describe|capture|clarify|note|spell|call",
	    NULL, NULL, "our|unrelated", true,
	    "\"It would be nice to make this a bit more sophisticated.\", "
	    "\"It would be great if you can repost ...\", \"Would be nice "
	    "to avoid ...\", \"It might be good to capture here why ...\"" },
	{ MLQ_TAG_CHANGES, "changes-you-want", NULL, cls_you_want, NULL,
	    "see|be|know|able|understand|read", true,
	    "\"You probably want to close this file at the end\", \"you'll "
	    "want a new bit\": advice to the author" },
	/* "I think we rather want to check X before calling Y": the
	 * reviewer's "we" is the author's change. */
	{ MLQ_TAG_CHANGES, "changes-you-want",
	    "i think|guess|suspect|believe we "
	    "rather|probably|really|actually|just|also? want to|a|an",
	    NULL, NULL, "<not|don't if|when|whether", true,
	    "\"I think we rather want to check ...\"" },
	{ MLQ_TAG_CHANGES, "changes-would-help-have",
	    "^ but|and|so|yet|though|also|yes|actually? "
	    "it would|might also|probably|really|certainly? "
	    "be great|nice|helpful|useful to have|see|get|add "
	    "a|an|the|some|more? *? link|link:|tag|fixes|fixes:|comment|"
	    "description|explanation|context|note|reference|rationale",
	    NULL, NULL, NULL, true,
	    "\"it would be great to have a Link: to the report\"" },
	{ MLQ_TAG_CHANGES, "changes-would-help-text",
	    "description|message|changelog|comment|comments|context|"
	    "explanation|rationale|tag|link|documentation|details|information|"
	    "info *? *? *? *? "
	    "*? would|might also|probably|really|certainly? "
	    "be great|nice|helpful|useful|welcome|appreciated",
	    NULL, NULL, "<if|whether|not|any|anyone|what|which|debugging", true,
	    "\"A little more context in the commit message would be "
	    "helpful.\"" },
	{ MLQ_TAG_CHANGES, "changes-wrong-text",
	    "the|this|your patch|commit? description|message|log|changelog|"
	    "subject|title|wording *? *? *? *? *? is|looks|seems|sounds "
	    "wrong|incorrect|misleading|inaccurate|confusing|odd|unclear|"
	    "outdated|stale",
	    NULL, NULL, "<if|whether|not|no", true,
	    "\"The patch description is wrong\"" },
	{ MLQ_TAG_CHANGES, "changes-text-mismatch",
	    "the|this|your patch|commit? description|message|log|changelog|"
	    "subject|title|comment doesn't|don't|can't|cannot "
	    "match|reflect|describe|mention|explain",
	    NULL, NULL, "<if|whether", true,
	    "\"The patch description doesn't explain why ...\"" },
	{ MLQ_TAG_CHANGES, "changes-text-mismatch",
	    "the|this|your patch|commit? description|message|log|changelog|"
	    "subject|title|comment does|do not match|reflect|describe|mention|"
	    "explain",
	    NULL, NULL, "<if|whether", true,
	    "\"The description does not match the contents of the patch.\"" },
	{ MLQ_TAG_CHANGES, "changes-text-needed",
	    "message|description|changelog|log|comment|documentation "
	    "improvements|changes|updates|fixes|tweaks is|are needed|required|"
	    "necessary",
	    NULL, NULL, "<if|whether|no|not", true,
	    "\"Some commit message improvements are needed:\"" },
	{ MLQ_TAG_CHANGES, "changes-reason-not",
	    "^ so|and|but|also? is? there? any|a? reason|objection|"
	    "objections not to",
	    NULL, NULL, NULL, true,
	    "\"Any reason not to just determine the length inside the "
	    "tracepoint?\"" },
	{ MLQ_TAG_CHANGES, "changes-consider", NULL, cls_consider, NULL, NULL,
	    true, "\"Consider adding a new section in Documentation/...\"" },
	{ MLQ_TAG_CHANGES, "changes-bisected",
	    "bisect~ *? *? *? *? to|at this|the|your commit|patch|change",
	    NULL, NULL, "<if|whether|not|no", true,
	    "\"several LTP tests failing, with bisections pointing to this "
	    "commit\": a regression it brought" },
	{ MLQ_TAG_CHANGES, "changes-introduces",
	    "this|the|your patch|change|commit|hunk|series|patchset "
	    "potentially|also|now? "
	    "introduces|causes|creates|opens|adds|breaks *? *? *? *? *? "
	    "regression|regressions|leak|race|deadlock|bug|vulnerability|"
	    "vector|crash|hang|warning|warnings|use-after-free|uaf|overflow|"
	    "build|builds|compilation|boot|booting",
	    NULL, NULL, "<if|whether|not|no|doesn't|don't|can't|cannot", true,
	    "\"this patch potentially introduces a client-controlled DoS "
	    "vector\"" },
	{ MLQ_TAG_CHANGES, "changes-report",
	    "i'm|i|i've|we're|we get|getting|got|see|seeing|hit|hitting "
	    "this|a|the|some|these|new new? "
	    "warning~|error~|failure~|crash~|splat|oops|bug|regression",
	    NULL, NULL, "not|no|never|if|without|didn't|don't", true,
	    "\"I'm getting this new warning:\"" },
	{ MLQ_TAG_CHANGES, "changes-describe-in",
	    "describe|explain|mention|note|clarify|say|state|add * *? *? *? *? "
	    "in|to|into the|your? commit|changelog|message|log|description|"
	    "comment|comments|code|kernel-doc|kdoc|subject|title",
	    NULL, NULL, "no|not|don't|i|i'll", true,
	    "\"please describe it in the commit message\": not a request for "
	    "information, which asks the reviewer's own question" },
	{ MLQ_TAG_CHANGES, "changes-tag",
	    "provide|add|include|give|need|needs|missing|lacks|forgot|"
	    "want|with a|an|the|your? "
	    "fixes|reported-by|suggested-by|signed-off-by|cc|link|closes",
	    NULL, NULL, "no|not|don't|i|i'll|we'll", true,
	    "\"could you provide a Fixes: tag\", \"needs a Fixes: tag\"" },
	{ MLQ_TAG_CHANGES, "changes-substitute", NULL, NULL,
	    cls_substitute_line, NULL, true,
	    "\"s/blew/below/\": an editor's substitution" },
	{ MLQ_TAG_CHANGES, "changes-asked", NULL, cls_request_question, NULL,
	    "me|us|pull|tree|queue|pick|test|try|verify|confirm|review|bug|"
	    "problem|issue", true,
	    "\"Could we keep a define ...?\", \"Can't that depend on X "
	    "instead?\": a request put as a question" },
	{ MLQ_TAG_CHANGES, "changes-imperative", NULL, cls_imperative, NULL,
	    "sense|case|cases", true,
	    "\"Remove the netdev during re-init.\": a sentence that opens "
	    "with the verb" },
	{ MLQ_TAG_CHANGES, "changes-with-fixed",
	    "with that|this|these|those|the|above|all "
	    "nits|comments|issues|above|changes? "
	    "fixed|addressed|changed|resolved|done",
	    NULL, NULL, "no|not", true, "\"with that fixed: ...\"" },
	/* applied */
	{ MLQ_TAG_APPLIED, "applied-lead",
	    "^ applied|applying|queued|pulled|merged|committed", NULL, NULL,
	    CONDITION,
	    false, "\"Applied to net-next, thanks!\", \"Queued for 5.13\"" },
	{ MLQ_TAG_APPLIED, "applied-lead-picked",
	    "^ picked|pushed up|it|to|into|out|with", NULL, NULL, CONDITION,
	    false,
	    "\"Picked up\", \"Pushed to drm-misc-next\"" },
	{ MLQ_TAG_APPLIED, "applied-short",
	    "^ " APPLIED_WHAT "? " APPLIED_WHAT
	    "? applied|queued|pulled|merged",
	    NULL, NULL, CONDITION, false,
	    "\"Series applied\", \"Patch applied.\"" },
	{ MLQ_TAG_APPLIED, "applied-has-been",
	    "^ has|have been applied|merged|queued", NULL, NULL, CONDITION,
	    false, "\"(The patch ...) has been applied to the spi tree\"" },
	{ MLQ_TAG_APPLIED, "applied-i-have",
	    "i|i've|we|we've|i'm|we're have? "
	    "just|now|already|also|finally? "
	    "applied|queued|pulled|merged|applying|queuing|queueing",
	    NULL, NULL, CONDITION, false, "\"I've applied it to my tree\"" },
	{ MLQ_TAG_APPLIED, "applied-i-took",
	    "i|i've|we|we've have? just|now|already|also? "
	    "took|taken|picked|pushed up? the|your? "
	    "it|this|these|them|both|all|patch~|series|set|fix",
	    NULL, NULL, CONDITION, false, "\"I took patch #1 into net-next\"" },
	{ MLQ_TAG_APPLIED, "applied-and",
	    "and applied|queued|pulled|pushed "
	    "the|this|it|them|both|all|these|that|your",
	    NULL, NULL, CONDITION, false,
	    "\"I fixed it up and applied the patch\"" },
	{ MLQ_TAG_APPLIED, "applied-have-it",
	    "i|we have this|it|these|them|both applied|queued", NULL, NULL,
	    CONDITION, false, "\"I have this applied to the ... tree\"" },
	{ MLQ_TAG_APPLIED, "applied-adverb",
	    "^ * applied|queued|merged|committed|pulled "
	    "this|it|to|into|the|them|both|all|these|with|and",
	    NULL, NULL, CONDITION, false, "\"Hurriedly applied this ...\"" },
	{ MLQ_TAG_APPLIED, "applied-passive",
	    "patch|series|patches|set|patchset|pull|revert|it|this|they|them|"
	    "both|all|request has|have|was|were|got|is|are now|already|also? "
	    "been? applied|merged|queued",
	    NULL, NULL, CONDITION, false,
	    "\"This patch was applied to netdev/net-next.git\" (the list's bot)" },
	{ MLQ_TAG_APPLIED, "applied-to-tree",
	    "has|have|was|were|is|are|it's|that's|they're|it|this "
	    "now|already|currently|also|just? been? "
	    "pushed|added|committed|applied|merged|queued|included "
	    "to|into|in|on the|my|our? *? *? @tree",
	    NULL, NULL, CONDITION, false,
	    "\"It's been added to the for-next topic branch\"" },
	{ MLQ_TAG_APPLIED, "applied-replaced",
	    "replaced|swapped * *? *? *? *? *? in|into|on the|my|our? *? *? "
	    "@tree",
	    NULL, NULL, CONDITION, false,
	    "\"replaced the series in my -next branch with this version\"" },
};

const char *
mlq__classify_rule_name(size_t i)
{
	return i < MLQ__ARRAY_SIZE(rule_table) ? rule_table[i].name : NULL;
}

/* ---- words ------------------------------------------------------------- */

static bool
is_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

static bool
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Compares word w to literal l (n bytes) ignoring ASCII case; a typographic
 * apostrophe (U+2019) in the mail equals "'".  With prefix, w may go on.
 */
static bool
word_eq(const char *w, size_t wn, const char *l, size_t n, bool prefix)
{
	size_t i = 0, j = 0;

	while (j < n) {
		if (i >= wn)
			return false;
		if (l[j] == '\'' && i + 2 < wn && (unsigned char)w[i] == 0xe2 &&
		    (unsigned char)w[i + 1] == 0x80 &&
		    (unsigned char)w[i + 2] == 0x99) {
			i += 3;
			j++;
			continue;
		}
		if (mlq__lower(w[i]) != l[j])
			return false;
		i++;
		j++;
	}
	return prefix || i == wn;
}

/* True if word w is one of the '|'-separated alternatives in l[0..n). */
static bool word_in(const char *w, size_t wn, const char *l, size_t n);
/* word_in on a string literal, its length counted by the compiler. */
#define WORD_IN(w, n, lit) word_in((w), (n), lit, sizeof(lit) - 1)

/* Whether a token of [from, to) is one of the words of l. */
static bool
word_among(const struct cls_tok *t, size_t from, size_t to, const char *l,
    size_t n)
{
	for (; from < to; from++)
		if (word_in(t[from].s, t[from].len, l, n))
			return true;
	return false;
}
#define WORD_AMONG(t, from, to, lit)                                           \
	word_among((t), (from), (to), lit, sizeof(lit) - 1)

/* NACK, NAK, NACKed, NAKing, nack'd; "naked" only as "NAKed". */
static bool
is_nack_word(const char *w, size_t n)
{
	static const char *const words[] = { "nack", "nak", "nacked", "nacking",
		"naking", "nacks", "naks", "nack'd", "nak'd", "nack'ed",
		"nak'ed", "nack'ing", "nak'ing", "self-nack", "self-nak" };
	size_t i;

	for (i = 0; i < MLQ__ARRAY_SIZE(words); i++)
		if (word_eq(w, n, words[i], strlen(words[i]), false))
			return true;
	return n == 5 && memcmp(w, "NAK", 3) == 0 &&
	    word_eq(w, n, "naked", 5, false);
}

/* v2, V10: a patch version. */
static bool
is_version_word(const char *w, size_t n)
{
	size_t i;

	if (n < 2 || (w[0] != 'v' && w[0] != 'V'))
		return false;
	for (i = 1; i < n; i++)
		if (!is_digit((unsigned char)w[i]))
			return false;
	return true;
}

/* A word naming a tree or branch: net-next, for-5.13, mtd/next, 5.13. */
static bool
is_tree_word(const char *w, size_t n)
{
	static const char *const parts[] = { "next", "tree", "branch", "git",
		"for-", "fixes", "queue", "linus", "master", "main", "-rc",
		"stable", "devel", "mainline" };
	size_t i, j, k;

	if (n > 0 && is_digit((unsigned char)w[0]))
		return true;
	for (i = 0; i < MLQ__ARRAY_SIZE(parts); i++) {
		k = strlen(parts[i]);
		for (j = 0; j + k <= n; j++)
			if (word_eq(w + j, k, parts[i], k, false))
				return true;
	}
	return false;
}

static bool
word_in(const char *w, size_t wn, const char *l, size_t n)
{
	const char *end = l + n, *bar;
	size_t k;

	while (l < end) {
		bar = memchr(l, '|', (size_t)(end - l));
		k = (size_t)((bar ? bar : end) - l);
		if (k == 5 && memcmp(l, "@nack", 5) == 0) {
			if (is_nack_word(w, wn))
				return true;
		} else if (k == 2 && memcmp(l, "@v", 2) == 0) {
			if (is_version_word(w, wn))
				return true;
		} else if (k == 5 && memcmp(l, "@tree", 5) == 0) {
			if (is_tree_word(w, wn))
				return true;
		} else if (k == 7 && memcmp(l, "@change", 7) == 0) {
			if (word_in(w, wn, CHANGE_VERB, strlen(CHANGE_VERB)))
				return true;
		} else if (k > 0 && l[k - 1] == '~') {
			if (word_eq(w, wn, l, k - 1, true))
				return true;
		} else if (word_eq(w, wn, l, k, false))
			return true;
		if (bar == NULL)
			break;
		l = bar + 1;
	}
	return false;
}

/*
 * Matches pattern p (without ^) at tokens [i, end): true with *first set
 * to the first token consumed.  Optional elements try the longer match
 * first; patterns are a few words, so backtracking stays small.
 */
static bool
pat_match(const char *p, const struct cls_tok *t, size_t i, size_t end)
{
	const char *e;
	size_t n;
	bool opt, neg;

	while (*p == ' ')
		p++;
	if (*p == '\0')
		return true;
	if (*p == '$' && p[1] == '\0')
		return i == end;
	e = strchr(p, ' ');
	n = e ? (size_t)(e - p) : strlen(p);
	e = p + n;
	neg = *p == '!';
	if (neg) {
		if (i < end && word_in(t[i].s, t[i].len, p + 1, n - 1))
			return false;
		return pat_match(e, t, i, end);
	}
	opt = n > 1 && p[n - 1] == '?';
	if (opt)
		n--;
	if (i < end &&
	    ((n == 1 && *p == '*') || word_in(t[i].s, t[i].len, p, n)) &&
	    pat_match(e, t, i + 1, end))
		return true;
	return opt && pat_match(e, t, i, end);
}

/* Is one of 'words' in the clause (before token 'upto' for "<words")? */
static bool
clause_has(const struct cls_tok *t, const struct cls_clause *c,
    const char *words, size_t upto)
{
	const char *sp;
	size_t i, n;

	if (*words == '<') {
		words++;
		sp = strchr(words, ' ');
		n = sp ? (size_t)(sp - words) : strlen(words);
		for (i = c->begin; i < upto && i < c->end; i++)
			if (word_in(t[i].s, t[i].len, words, n))
				return true;
		if (sp == NULL)
			return false;
		words = sp + 1;
	}
	n = strlen(words);
	for (i = c->begin; i < c->end; i++)
		if (word_in(t[i].s, t[i].len, words, n))
			return true;
	return false;
}

/*
 * A question: the clause ends in '?' and is neither a ping, a request for
 * news, a request to change the patch ("can you split this?", which
 * changes-can-you tags) nor a question to the maintainer about taking it.
 */
static bool
cls_question(const struct cls_tok *t, const struct cls_clause *c)
{
	static const char *const not_questions[] = {
		"*? *? ping",
		"^ any "
		"update|updates|news|progress|comments|feedback|objections|thoughts",
		"can|could|would|will you please|kindly|also|just? also|just? "
		"@change",
		"can|could|would|will you|someone|anyone please|kindly? "
		"take|pick|apply|queue|merge|pull|route",
		/* "Could Chuck take it with the nfsd stuff?" */
		"can|could|would|will * please|kindly? "
		"take|pick|apply|queue|merge|pull|route "
		"it|this|these|them|both|through|via|up",
		/* "Do you prefer to take this to your tree?": routing, put
		 * to a maintainer */
		"your tree|trees|branch|queue|repo|repository",
		/* "..., seriously?": disbelief, not a question */
		"^ seriously|really|srsly|huh|wow|what $",
		/* "what am I supposed to think of this?": the writer's own
		 * puzzle, said, not put to anyone */
		"what|how am|are i|we supposed|meant|expected|to",
		/* "Does anyone know why ...?": put to the list */
		"^ does|do|did|can|could|would|will|has|have|is|isn't "
		"anyone|anybody|someone|somebody|everyone|everybody",
		/* "then what was the point of including anything?": an
		 * argument, no answer wanted */
		"what's|what is|was|would|'s? the point|use|sense of|in",
	};
	size_t i, j;

	if (!c->question || c->begin == c->end)
		return false;
	/* "Could the coverage please be extended ...?", "please refer to
	 * X?": asked for, not asked.  ("Can you please describe ...?" asks
	 * the author for facts, a question.) */
	for (j = c->sent; j < c->end; j++)
		if (word_in(t[j].s, t[j].len, "please|pls|kindly", 17) &&
		    (j == c->sent ||
			!word_eq(t[j - 1].s, t[j - 1].len, "you", 3, false)))
			return false;
	/* The vetoes read the whole sentence: "Could you use foo() here?" */
	for (i = 0; i < MLQ__ARRAY_SIZE(not_questions); i++) {
		const char *p = not_questions[i];
		bool anchored = *p == '^';

		if (anchored)
			p++;
		for (j = anchored ? c->begin : c->sent; j < c->end; j++) {
			if (pat_match(p, t, j, c->end))
				return false;
			if (anchored)
				break;
		}
	}
	return true;
}

/*
 * A sentence of obligation about the patch: a modal ("should", "must",
 * "needs to", "has to") whose subject is not the writer ("I should have
 * caught it") and whose verb does not hedge ("this should work", "that
 * should be fine").  In a reviewer's own text that is a request.
 */
static bool
cls_modal_request(const struct cls_tok *t, const struct cls_clause *c)
{
	static const char modal[] = "should|must|shouldn't|mustn't|ought";
	static const char need[] = "need|needs|has|have";
	static const char subject_veto[] =
	    "i|i'd|i'll|i'm|me|which|what|who|how|whether|why|no|a|the";
	static const char adverb[] =
	    "probably|also|really|just|rather|still|then|instead|definitely|"
	    "actually|perhaps|maybe|not|at|least|explicitly|first|simply|"
	    "only|either|better|ideally|likely|certainly|obviously|clearly|"
	    "normally|usually|generally|typically|now|all|both|hopefully|"
	    "to";
	static const char hedge_verb[] =
	    "work|works|suffice|happen|matter|help|hurt|apply|do|cover|solve|"
	    "resolve|compile|build|boot|pass|fail|remain|stay|exist|handle|"
	    "catch|show|say|know|see|get|mean|come|figure|understand|"
	    "investigate|discuss|wait|think|learn|decide|agree|talk|trust|"
	    "assume|hope|remember|accept|live|conflict|affect|break|cause|"
	    "allow|enable|prevent|result|lead|land|arrive|appear|look|sound|"
	    "succeed|speed|trigger";
	static const char hedge_state[] =
	    "fine|ok|okay|safe|harmless|enough|sufficient|possible|able|"
	    "correct|right|good|true|valid|unnecessary|obvious|trivial|"
	    "covered|handled|gone|same|no|equivalent|identical|clear|"
	    "reasonable|acceptable|noted|visible|rare|unlikely|impossible|"
	    "been|had|the|a|an|there|here|aware|better|applied|merged|queued|"
	    "picked|taken|backported|reverted|made|done|seen|known|caught|sent|"
	    "found|noticed|gotten|with|available|ready|out|upstream|tested|"
	    "investigated|confirmed|discussed|considered|reviewed|my|our|too|"
	    "hard|difficult|easy|simple|straightforward|cheap|expensive|"
	    "common|likely";
	size_t i, j, k;

	for (j = c->begin; j < c->end; j++) {
		const struct cls_tok *w = &t[j];

		if (word_in(w->s, w->len, modal, sizeof(modal) - 1)) {
			k = j + 1;
		} else if (word_in(w->s, w->len, need, sizeof(need) - 1) &&
		    j + 1 < c->end && word_eq(t[j + 1].s, t[j + 1].len, "to", 2,
					  false) &&
		    !(j > c->begin && word_in(t[j - 1].s, t[j - 1].len, modal,
					  sizeof(modal) - 1))) {
			k = j + 2;
		} else
			continue;
		if (j > c->begin && word_in(t[j - 1].s, t[j - 1].len,
					subject_veto, sizeof(subject_veto) - 1))
			continue;
		/* "I'm testing with this set now and should have results
		 * later today": the writer, the subject left out (not "I
		 * think they're all wrong and should be ...", whose subject
		 * is the thing thought of). */
		if (j > c->begin + 1 &&
		    WORD_IN(t[j - 1].s, t[j - 1].len, "and|but|so") &&
		    WORD_IN(t[c->begin].s, t[c->begin].len,
			"i|i'm|i've|i'll|i'd|we|we're|we've|we'll") &&
		    !WORD_AMONG(t, c->begin + 1, j,
			"that|think|agree|believe|guess|suspect|feel|like|"
			"don't|doesn't|they|they're|he|she|you"))
			continue;
		/* "I don't think we need to clamp": the writer's view that
		 * nothing must change. */
		for (i = c->begin; i < j; i++)
			if (word_in(t[i].s, t[i].len, "don't|doesn't|not|never",
				23) &&
			    i + 1 < j &&
			    word_in(t[i + 1].s, t[i + 1].len,
				"think|believe|see|agree|feel", 28))
				break;
		if (i < j)
			continue;
		/* "... or drivers have to inform this?": "need to" and
		 * "have to" in a question ask what must be; only "should"
		 * and "must" may propose. */
		if (c->question && !word_in(w->s, w->len, modal,
				       sizeof(modal) - 1))
			continue;
		/* "commits that need to be looked at": a relative clause
		 * describes; "to have to push back": an infinitive. */
		if (j > c->begin + 1 &&
		    word_in(t[j - 1].s, t[j - 1].len, "that|which|who|to", 17))
			continue;
		/* "a debate if FW update should be moved": asked, not
		 * asked for. */
		for (i = j > c->begin + 3 ? j - 3 : c->begin; i < j; i++)
			if (word_in(t[i].s, t[i].len, "if|whether", 10))
				break;
		if (i < j)
			continue;
		/* "whether or not cifs/nfs should be ...". */
		for (i = j > c->begin + 6 ? j - 6 : c->begin;
		     i + 3 < j && !(WORD_IN(t[i].s, t[i].len, "whether") &&
				       WORD_IN(t[i + 1].s, t[i + 1].len, "or") &&
				       WORD_IN(t[i + 2].s, t[i + 2].len, "not"));
		     i++)
			;
		if (i + 3 < j)
			continue;
		/* "In the case it has to return a 32-bit inode it xors
		 * ...": a condition, what follows it says what then. */
		if ((j > c->begin + 2 &&
			WORD_IN(t[c->begin + 1].s, t[c->begin + 1].len, "case") &&
			WORD_IN(t[c->begin].s, t[c->begin].len, "in")) ||
		    (j > c->begin + 2 &&
			WORD_IN(t[c->begin + 2].s, t[c->begin + 2].len, "case") &&
			WORD_IN(t[c->begin].s, t[c->begin].len, "in")))
			continue;
		/* "we will have to report this", "what we need to do is":
		 * the writer's own doing. */
		if (j > c->begin + 1 &&
		    (word_in(t[j - 2].s, t[j - 2].len, "what", 4) ||
			(word_in(t[j - 1].s, t[j - 1].len, "will|would|shall",
			     16) &&
			    word_in(t[j - 2].s, t[j - 2].len, "i|we", 4))))
			continue;
		/* Advice for next time: "please note that tags should not
		 * be wrapped", "in future, ...". */
		for (i = c->begin; i < j; i++)
			if (word_in(t[i].s, t[i].len, "note|future|fyi", 15))
				break;
		if (i < j)
			continue;
		/* "you would need to modify the caller": what it would
		 * take, not what must be done. */
		if (k == j + 2 && j > c->begin &&
		    WORD_IN(t[j - 1].s, t[j - 1].len, "would|might|could|'d|"
						      "we'd|they'd|it'd"))
			continue;
		/* "in my understanding the table should be in DDR": how
		 * the writer believes things are. */
		for (i = c->begin; i < j; i++)
			if (WORD_IN(t[i].s, t[i].len, "understanding|iiuc|afaiu|"
						      "afaik|afaict|iirc|assume|"
						      "presume|suppose"))
				break;
		if (i < j)
			continue;
		/* "Which tree should this go through?" asks. */
		if (c->question) {
			for (i = c->begin; i < j; i++)
				if (WORD_IN(t[i].s, t[i].len,
					"which|what|where|when|who|how|why"))
					break;
			if (i < j)
				continue;
		}
		/* "You shouldn't have to think about that": no duty. */
		if (k + 1 < c->end &&
		    WORD_IN(t[k].s, t[k].len, "have|need") &&
		    WORD_IN(t[k + 1].s, t[k + 1].len, "to"))
			continue;
		/* "Should I ...?" asks for advice; "Should the clock be left
		 * enabled?" asks (a "Shouldn't it ...?" proposes). */
		if (k < c->end && word_in(t[k].s, t[k].len, "i|we", 4))
			continue;
		if (c->question && word_in(w->s, w->len, "should|must", 11)) {
			for (i = c->begin; i < j &&
			     word_in(t[i].s, t[i].len, "also|and|but|so|then|or",
				 23);
			     i++)
				;
			if (i == j)
				continue;
		}
		/* "flags should already be zero": what is expected to hold. */
		for (i = k; i < c->end &&
		     word_in(t[i].s, t[i].len, adverb, sizeof(adverb) - 1);
		     i++)
			if (word_eq(t[i].s, t[i].len, "already", 7, false))
				break;
		if (i < c->end && word_eq(t[i].s, t[i].len, "already", 7, false))
			continue;
		while (k < c->end &&
		    word_in(t[k].s, t[k].len, adverb, sizeof(adverb) - 1))
			k++;
		if (k >= c->end)
			continue;
		if (word_in(t[k].s, t[k].len, hedge_verb,
			sizeof(hedge_verb) - 1))
			continue;
		/* "this ought to go in ahead of the rest of the set": when
		 * it is applied ("should go to Trond" asks for a resend). */
		if (k + 1 < c->end && WORD_IN(t[k].s, t[k].len, "go|come") &&
		    WORD_IN(t[k + 1].s, t[k + 1].len, "in|into|ahead|upstream|"
						      "before|after|first|"
						      "last|away|through"))
			continue;
		/* "... should make it faster": what it will do; "This should
		 * make v5.18": when it will land. */
		if (k + 1 < c->end && WORD_IN(t[k].s, t[k].len, "make|hit|miss") &&
		    (WORD_IN(t[k + 1].s, t[k + 1].len, "it|things|life|"
						       "everything|sense") ||
			is_version_word(t[k + 1].s, t[k + 1].len) ||
			is_tree_word(t[k + 1].s, t[k + 1].len) ||
			(t[k + 1].len > 1 && t[k + 1].s[0] == 'v' &&
			    is_digit((unsigned char)t[k + 1].s[1]))))
			continue;
		if ((word_eq(t[k].s, t[k].len, "be", 2, false) ||
			word_eq(t[k].s, t[k].len, "have", 4, false))) {
			for (k++; k < c->end &&
			     word_in(t[k].s, t[k].len, adverb, sizeof(adverb) - 1);
			     k++)
				;
			if (k < c->end && word_in(t[k].s, t[k].len, hedge_state,
					      sizeof(hedge_state) - 1))
				continue;
			/* "should have noticed": what was not done */
			if (k < c->end && t[k].len > 3 &&
			    word_eq(t[k].s + t[k].len - 2, 2, "ed", 2, false) &&
			    word_eq(t[k - 1].s, t[k - 1].len, "have", 4, false))
				continue;
		}
		return true;
	}
	return false;
}

/* "Maybe:", "Suggestion:" above the text the reviewer proposes. */
static bool
cls_proposal(const struct cls_tok *t, const struct cls_clause *c)
{
	static const char lead[] =
	    "maybe|perhaps|suggestion|proposal|alternatively|instead|like";
	size_t j;

	if (!c->colon || c->end - c->begin > 3)
		return false;
	/* "I was thinking of capturing the traffic, something like:" shows
	 * how to get data, not a change to make. */
	for (j = c->sent; j < c->begin; j++)
		if (WORD_IN(t[j].s, t[j].len, "captur~|trac~|testing|run|"
					      "running|debug~|reproduc~|"
					      "bisect~|logging|dump~|measur~|"
					      "profil~|collect~|record~"))
			return false;
	j = c->begin;
	/* "Something like:", "Maybe something like:" */
	for (; j < c->end; j++)
		if (word_in(t[j].s, t[j].len, lead, sizeof(lead) - 1))
			return true;
	return false;
}

/*
 * A sentence that opens with a change verb, capitalized, is an order
 * ("Remove the netdev during re-init.", "Drop this hunk."); not a
 * question ("Use the lock here?" asks), and not "Make sense?".
 */
static bool
cls_imperative(const struct cls_tok *t, const struct cls_clause *c)
{
	const struct cls_tok *w = &t[c->begin];

	/* "Sort of, yes.", "Use of ...", "Change looks good": a noun,
	 * not an order. */
	if (c->end - c->begin >= 2 &&
	    WORD_IN(t[c->begin + 1].s, t[c->begin + 1].len,
		"of|is|was|looks|seems|sounds|makes|works|appears|has"))
		return false;
	/* "This looks like a fix, so move it to a separate patch." */
	if (c->begin != c->sent && c->end - c->begin >= 3 && !c->question &&
	    WORD_IN(w->s, w->len, "so|then") &&
	    WORD_IN(w[1].s, w[1].len, CHANGE_VERB "|drop") &&
	    !WORD_IN(w[2].s, w[2].len, "that|of|is|was|far|much|many|"
				       "long|are|it's|i|we|you|they"))
		return true;
	/* "Missing Signed-off-by? And add a little text that explains
	 * why?": the order goes on past "and". */
	if (c->begin == c->sent && c->end - c->begin >= 3 &&
	    WORD_IN(w->s, w->len, "and|also|plus") &&
	    WORD_IN(w[1].s, w[1].len, CHANGE_VERB) &&
	    !WORD_IN(w[2].s, w[2].len, "of|is|was|that|it's|i|we|you|they"))
		return true;
	if (c->end - c->begin < 2 || w->s[0] < 'A' || w->s[0] > 'Z' ||
	    !WORD_IN(w->s, w->len, CHANGE_VERB))
		return false;
	/* "Move the rationale to this comment, maybe?" asks for it; so
	 * does "Style: Replace the assignment in these spots?" after a
	 * reviewer's label (not a subject's "NFS: Add ...", nor a list's
	 * "1) Address ..."). */
	return c->begin == c->sent ||
	    (c->begin - c->sent <= 2 &&
		WORD_IN(t[c->sent].s, t[c->sent].len,
		    "style|nit|nits|nitpick|minor|suggestion|typo|optional|"
		    "cosmetic|whitespace|formatting|naming|also|ps"));
}

/* Words that, once "please" or "can you" is said, ask to be told. */
#define ASK_INFO                                                               \
	"explain|clarify|confirm|describe|tell|elaborate|share|say|check|"    \
	"test|try|verify|look|comment|point|provide|give|let|help|remind|"    \
	"recall|remember|imagine|see|think|be|have|do|answer|reply|respond|"  \
	"send|run|post|report|paste|attach|show|find|note|ignore|read|"       \
	"advise|review|ack|cc|consider|wait|stop|apply|take|pick|merge|"      \
	"queue|pull|route|accept|feel|know|also|please|kindly|just|again|"   \
	"simply|verify|double-check|retest|describe|list|reproduce|bisect|"   \
	"trace|capture|collect|measure|rerun|enable|dump|get|grab|upload|"    \
	"identify|determine|figure|gather|obtain|record|mount|boot|install|"  \
	"build|compile|expand"
/* Where an answer would go into the patch rather than into a reply. */
#define IN_PATCH                                                               \
	"commit~|changelog~|log|description|message|comment~|subject|title|"  \
	"code|patch~|documentation|kerneldoc|binding~|thread"

/* The clause's first word past "so", "and", "but", "then", "also". */
static size_t
skip_conj(const struct cls_tok *t, const struct cls_clause *c)
{
	size_t j = c->begin;

	while (j + 1 < c->end &&
	    WORD_IN(t[j].s, t[j].len, "so|and|but|then|also|ok|okay|nit|or|"
				      "well|hmm|now|again"))
		j++;
	return j;
}

static bool
clause_has_word(const struct cls_tok *t, const struct cls_clause *c,
    const char *l)
{
	size_t j;

	for (j = c->begin; j < c->end; j++)
		if (word_in(t[j].s, t[j].len, l, strlen(l)))
			return true;
	return false;
}

/* cls_request_question over tokens [start, end). */
static bool
request_question_at(const struct cls_tok *t, size_t start, size_t end)
{
	static const char wh[] =
	    "why|what|how|when|where|who|whom|whose|which|is|are|was|were|"
	    "does|did|do|has|have|had";
	struct cls_clause sub = { .begin = start, .end = end, .sent = start };
	size_t j, k;

	if (start >= end)
		return false;
	j = skip_conj(t, &sub);
	/* "Can you / could we <verb> ...?" */
	if (j + 2 < end &&
	    WORD_IN(t[j].s, t[j].len, "can|could|would|will|won't|can't|"
				      "couldn't|wouldn't|shall|should") &&
	    WORD_IN(t[j + 1].s, t[j + 1].len, "you|we")) {
		for (k = j + 2; k < end &&
		     WORD_IN(t[k].s, t[k].len, "please|kindly|also|just|maybe|"
					       "perhaps|simply|rather|instead|"
					       "not|then|at|a|minimum|least|"
					       "first|now");
		     k++)
			;
		if (k < end &&
		    !word_in(t[k].s, t[k].len, ASK_INFO, sizeof(ASK_INFO) - 1))
			return true;
		if (k < end && clause_has_word(t, &sub, IN_PATCH) &&
		    clause_has_word(t, &sub, "in|into|to"))
			return true;
	}
	/* "Mind changing ...?", "Care to split ...?" */
	if (j + 1 < end && WORD_IN(t[j].s, t[j].len, "mind|care"))
		return true;
	/* "Did you mean pfn_pte?": a typo pointed out. */
	if (pat_match("did|do you mean", t, j, end))
		return true;
	/* "I don't think pci-domain is required, is it?" */
	if (pat_match("i don't|do not? think|believe", t, j, end))
		return true;
	for (k = j; k + 1 < end; k++) {
		/* "Presumably that's supposed to be ...?" */
		if (pat_match("supposed|meant to be|read|say", t, k, end))
			return true;
		/* "If that's all you need, then how about ...?" */
		if (pat_match("how about", t, k, end))
			return true;
	}
	/* "Don't you need to check ...?" */
	if (pat_match("don't|doesn't you|we|it|this|that need|needs|want|have",
		t, j, end))
		return true;
	/* "Would it help if ...?" */
	if (pat_match("would|wouldn't it help", t, j, end))
		return true;
	for (k = j; k + 2 < end; k++) {
		/* "Something like xdr_finish_decode()?": a proposal. */
		if (k == j && pat_match("maybe|perhaps? something like", t, k,
				  end))
			return true;
		/* "... or you could just add the argument to vfs_mkdir()
		 * and change all the callers?" */
		if (pat_match("you|we could|can just|simply|instead? @change",
			t, k, end))
			return true;
	}
	/* "Maybe this could be put below ...?" */
	if (WORD_IN(t[j].s, t[j].len, "maybe|perhaps") &&
	    clause_has_word(t, &sub, "could|should|can|might|would"))
		return true;
	/* "Can't that depend on X instead?"; "Why X instead of Y?" asks,
	 * and so does "Not a bug, rather a limit of the hardware?". */
	if (word_in(t[j].s, t[j].len, wh, sizeof(wh) - 1))
		return false;
	if (clause_has_word(t, &sub, "instead"))
		return true;
	for (k = j; k + 1 < end; k++)
		if (pat_match("rather than", t, k, end))
			return true;
	return false;
}

/*
 * A question whose form proposes a change: "Could we keep a define ...?",
 * "Can you at a minimum reply to this thread with the update?", "Can't
 * that depend on X instead?", "Mind changing your script ...?", "Did you
 * mean pfn_pte?", "Maybe this sentence could go below the --- line?".
 * "Can you explain why?" asks to be told, a question, unless what is
 * told is to go into the patch ("... in the commit message?").  Read
 * from the question's own clause and from its sentence's start.
 */
static bool
cls_request_question(const struct cls_tok *t, const struct cls_clause *c)
{
	if (!c->question || c->begin == c->end)
		return false;
	return request_question_at(t, c->begin, c->end) ||
	    (c->sent < c->begin && request_question_at(t, c->sent, c->end));
}

/*
 * "How about renaming it?", "How about this replacement", "What about
 * just never setting it?" propose; "What about the ChromeOS bootloader?",
 * "What about situations where ...?" ask what becomes of a case (right
 * under a quoted hunk changes-what-about reads them as requests).
 */
static bool
cls_how_about(const struct cls_tok *t, const struct cls_clause *c)
{
	size_t j = skip_conj(t, c);

	while (j < c->end && WORD_IN(t[j].s, t[j].len, "maybe|perhaps|or"))
		j++;
	if (j + 1 >= c->end || !WORD_IN(t[j].s, t[j].len, "how|what") ||
	    !WORD_IN(t[j + 1].s, t[j + 1].len, "about"))
		return false;
	j += 2;
	if (j >= c->end)
		return true; /* "How about:" above code */
	if (WORD_IN(t[j].s, t[j].len, "the") && j + 1 < c->end &&
	    WORD_IN(t[j + 1].s, t[j + 1].len, "following|below|attached"))
		return true;
	return !WORD_IN(t[j].s, t[j].len, "the|situations|situation|cases|"
					  "case|when|whether|if|other|others|"
					  "those|these|existing");
}

/*
 * "You probably want to use page_offset() here", "I think you'll want a
 * new bit": what the author will want, said to him.  Asked ("Do you want
 * me to pick it up, or would you want to ...?", "you want to upsert the
 * mapping, right?"), it is a question.
 */
static bool
cls_you_want(const struct cls_tok *t, const struct cls_clause *c)
{
	size_t j, k;

	if (c->question)
		return false;
	for (j = c->begin; j + 2 < c->end; j++) {
		/* "Might also want to check this when ...": the subject
		 * left out, as in a note on the code above it. */
		if (j == c->begin && WORD_IN(t[j].s, t[j].len, "might|may"))
			k = j;
		else if (!WORD_IN(t[j].s, t[j].len, "you|you'll|you'd") ||
		    (j > c->begin &&
			WORD_IN(t[j - 1].s, t[j - 1].len,
			    "do|did|don't|would|will|could|can|should|not")))
			continue;
		else
			k = j + 1;
		for (; k + 1 < c->end &&
		     WORD_IN(t[k].s, t[k].len, "probably|really|may|might|will|"
					       "would|also|then|still|likely");
		     k++)
			;
		if (k + 1 >= c->end || !WORD_IN(t[k].s, t[k].len, "want") ||
		    !WORD_IN(t[k + 1].s, t[k + 1].len,
			"to|a|an|the|some|something"))
			continue;
		/* "if you want to ...", "what you want is ...": a
		 * condition or a description, not advice.  A "when"
		 * after it ("want to check this when freeing") is the
		 * advice's own. */
		if (!WORD_AMONG(t, c->begin, j,
			"if|whether|when|whenever|unless|what|as|how|whatever|"
			"wherever|where|why|because|since|that|which|who|"
			"either|once|don't|not|never"))
			return true;
	}
	return false;
}

/*
 * "Consider adding a new section to ...", "Please consider leading with a
 * problem statement": a change put forward, the verb a gerund.
 */
static bool
cls_consider(const struct cls_tok *t, const struct cls_clause *c)
{
	size_t j = skip_conj(t, c);

	while (j < c->end &&
	    WORD_IN(t[j].s, t[j].len, "please|pls|maybe|perhaps|also|just"))
		j++;
	if (j + 1 >= c->end || !WORD_IN(t[j].s, t[j].len, "consider"))
		return false;
	j++;
	/* "please consider applying / pulling ... into stable": routing,
	 * asked of a maintainer. */
	return t[j].len > 4 &&
	    word_eq(t[j].s + t[j].len - 3, 3, "ing", 3, false) &&
	    !WORD_IN(t[j].s, t[j].len, "nothing|something|anything|"
				       "everything|thing|things|applying|"
				       "pulling|taking|queueing|queuing|"
				       "merging|picking|backporting") &&
	    !(j + 2 < c->end && WORD_IN(t[j].s, t[j].len, "adding") &&
		WORD_IN(t[j + 1].s, t[j + 1].len, "this|these|the") &&
		WORD_IN(t[j + 2].s, t[j + 2].len, "patch|patches|series|"
						  "following"));
}

/*
 * "Maybe bvec_set_zero_page()?", "Perhaps __initdata?": a name put
 * forward, a question of one or two words after "maybe".
 */
static bool
cls_maybe_name(const struct cls_tok *t, const struct cls_clause *c)
{
	size_t j = c->begin, k, end = c->end;

	/* "Maybe CONFIG_NFS_LOCALIO_SUPPORT here too?" */
	while (end > j + 1 &&
	    WORD_IN(t[end - 1].s, t[end - 1].len, "here|there|too|also|"
						   "instead|then|as|well"))
		end--;
	if (!c->question || end - c->begin < 2 ||
	    !WORD_IN(t[j].s, t[j].len, "maybe|perhaps"))
		return false;
	if (end - c->begin <= 3) {
		for (j++; j < end; j++)
			for (k = 0; k < t[j].len; k++)
				if (t[j].s[k] == '_')
					return true;
		return false;
	}
	/* "Maybe missing a call to nfsd_last_thread in this case?",
	 * "Maybe collapse this patch and 1/5?": what to change, guessed
	 * at.  Not a guess at what is ("Maybe it already does?", "Maybe
	 * krb5-devel was not installed?"), which asks. */
	if (c->begin != c->sent &&
	    !(c->begin == c->sent + 1 &&
		WORD_IN(t[c->sent].s, t[c->sent].len, "and|also|again|or|so")))
		return false;
	if (WORD_IN(t[j + 1].s, t[j + 1].len,
		"it|it's|it'll|that|that's|this|the|they|we|we'll|you|he|"
		"she|there|a|i|i'm|someone|somebody|anyone|nobody|not|"
		"something"))
		return false;
	for (k = c->begin; k < c->end; k++)
		if (WORD_IN(t[k].s, t[k].len,
			"is|was|were|are|has|had|have|will|would|does|did|can|"
			"could|isn't|wasn't|aren't|i|i'm|me|my|what|why|how|who|"
			"which|where|when"))
			return false;
	return true;
}

/*
 * "More detail please.", "Much more detail on the overall objective and
 * the observed results, please?": what the patch text lacks, asked for by
 * name; the sentence opens with it and ends with "please".
 */
static bool
cls_text_please(const struct cls_tok *t, const struct cls_clause *c)
{
	size_t j = c->sent;

	if (c->end == 0 || c->end <= j ||
	    !WORD_IN(t[c->end - 1].s, t[c->end - 1].len, "please|pls"))
		return false;
	while (j < c->end &&
	    WORD_IN(t[j].s, t[j].len, "a|an|some|much|more|better|little|bit"))
		j++;
	return j + 1 < c->end &&
	    WORD_IN(t[j].s, t[j].len, "detail|details|explanation|context|"
				      "rationale|information|description|"
				      "documentation|justification|comments");
}

/*
 * "Please only print this if ...": "please" and a verb that is not one
 * of asking to be told ("please explain") or of courtesy ("please find
 * attached", "please ignore").
 */
static bool
cls_please(const struct cls_tok *t, const struct cls_clause *c)
{
	size_t j = skip_conj(t, c), k;
	bool neg = false;

	if (c->question || j >= c->end ||
	    !WORD_IN(t[j].s, t[j].len, "please|pls|kindly"))
		return false;
	for (k = j + 1; k < c->end &&
	     WORD_IN(t[k].s, t[k].len, "only|also|just|simply|first|now|"
				       "rather|instead|do|don't|always|never|"
				       "not|at|least|can|could|would|will|"
				       "you");
	     k++)
		neg |= WORD_IN(t[k].s, t[k].len, "don't|never|not");
	/* "Please don't add ...", but not "please do not try to frame it
	 * that way": forbidden, it must be a change to the patch. */
	if (neg)
		return k < c->end && word_in(t[k].s, t[k].len, CHANGE_VERB,
					 sizeof(CHANGE_VERB) - 1);
	return k < c->end &&
	    !word_in(t[k].s, t[k].len, ASK_INFO, sizeof(ASK_INFO) - 1) &&
	    !WORD_IN(t[k].s, t[k].len, "the|a|an|this|that|it|me|us|let|"
				       "everyone|all|folks|guys|note|see|"
				       "notify|contact|delete|destroy|"
				       "disregard|excuse|forgive|pardon|"
				       "bear|refer|visit|go|click");
}

/* "s/blew/below/", ":s/reove/removing": an editor's substitution. */
static bool
cls_substitute_line(const char *s, size_t n)
{
	size_t i = 0, slashes = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == ':'))
		i++;
	if (i + 2 >= n || s[i] != 's' || s[i + 1] != '/' ||
	    !is_alnum((unsigned char)s[i + 2]))
		return false;
	for (i += 1; i < n && s[i] != ' '; i++)
		slashes += s[i] == '/';
	return slashes >= 2;
}

/* ---- trailers ---------------------------------------------------------- */

/*
 * A trailer line "Key-by: value" whose key contains one of the words in
 * 'which' ("Acked-for-MFD-by:", "Reviewed-and-tested-by:", "Nacked-by :").
 */
static bool
trailer_has(const char *s, size_t n, const char *which)
{
	size_t i = 0, k, w, wl = strlen(which);
	bool hit = false;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	k = i;
	while (k < n && (is_alnum((unsigned char)s[k]) || s[k] == '-'))
		k++;
	if (k - i < 4 || !word_eq(s + k - 3, 3, "-by", 3, false))
		return false;
	w = k;
	while (w < n && s[w] == ' ')
		w++;
	if (w >= n || s[w] != ':')
		return false;
	for (w++; w < n && (s[w] == ' ' || s[w] == '\t'); w++)
		;
	if (w == n)
		return false;
	/* The words of the key, "by" excluded. */
	k -= 3;
	while (i < k) {
		w = i;
		while (w < k && s[w] != '-')
			w++;
		if (word_in(s + i, w - i, which, wl))
			hit = true;
		i = w + 1;
	}
	return hit;
}

/*
 * trailer_has, also past a label that opens the line: "[Jack Wang]
 * Acked-by: ...", "For the NFSD piece: Acked-by: ...".
 */
static bool
trailer_in(const char *s, size_t n, const char *which)
{
	size_t i;

	if (trailer_has(s, n, which))
		return true;
	for (i = 0; i + 2 < n && i < 80; i++)
		if ((s[i] == ']' || s[i] == ':') && s[i + 1] == ' ')
			return trailer_has(s + i + 1, n - i - 1, which);
	return false;
}

static bool
cls_nack_trailer(const char *s, size_t n)
{
	return trailer_in(s, n, "nacked|naked|nack|nak|nak'd|nack'd");
}

static bool
cls_ack_trailer(const char *s, size_t n)
{
	return trailer_in(s, n, "acked");
}

static bool
cls_reviewed_trailer(const char *s, size_t n)
{
	return trailer_in(s, n, "reviewed");
}

static bool
cls_tested_trailer(const char *s, size_t n)
{
	return trailer_in(s, n, "tested");
}

/* ---- own text ---------------------------------------------------------- */

static bool
has_prefix(const char *s, size_t n, const char *p)
{
	return mlq_text_has_prefix_ci(s, n, p);
}

static bool
has_suffix(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);

	return n >= k && mlq_text_has_prefix_ci(s + n - k, k, p);
}

static bool
contains(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p), i;

	for (i = 0; i + k <= n; i++)
		if (memcmp(s + i, p, k) == 0)
			return true;
	return false;
}

/* '>' first, after optional blanks: "> x", ">> x", "  > x". */
static bool
is_quoted_line(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i < n && s[i] == '>';
}

/* "-- " opens the signature; "--" too, as some clients eat the blank. */
static bool
is_signature_line(const char *s, size_t n)
{
	return (n == 2 || n == 3) && s[0] == '-' && s[1] == '-' &&
	    (n == 2 || s[2] == ' ');
}

/*
 * Text below this line is not the writer's: a forwarded or Outlook-quoted
 * original, or a list footer ("____" rule above "Intel-wired-lan mailing
 * list").
 */
static bool
is_original_line(const struct cls_line *l, size_t i, size_t nl)
{
	const char *s = l[i].s;
	size_t n = l[i].len, k;

	if (contains(s, n, "-----Original Message-----") ||
	    has_prefix(s, n, "Begin forwarded message:") ||
	    (has_prefix(s, n, "---------- Forwarded message") && n > 30))
		return true;
	for (k = 0; k < n && s[k] == '_'; k++)
		;
	if (k >= 10 && k == n)
		return true;
	/* Outlook: "From: X", "Sent: ..." (or "Date:", then "To:"). */
	if (!has_prefix(s, n, "From: ") || i + 1 >= nl)
		return false;
	if (has_prefix(l[i + 1].s, l[i + 1].len, "Sent: "))
		return true;
	return has_prefix(l[i + 1].s, l[i + 1].len, "Date: ") && i + 2 < nl &&
	    (has_prefix(l[i + 2].s, l[i + 2].len, "To: ") ||
		has_prefix(l[i + 2].s, l[i + 2].len, "Subject: "));
}

/* "On ..., X wrote:" and its cousins in other clients and languages. */
static bool
is_attribution_end(const char *s, size_t n)
{
	static const char *const ends[] = { "wrote:", "writes:", "wrote :",
		"said:", "schrieb:", "crit :", "crit:", "escribi\xc3\xb3:",
		"escreveu:", "napisa\xc5\x82:", "ha scritto:" };
	size_t i;

	for (i = 0; i < MLQ__ARRAY_SIZE(ends); i++)
		if (has_suffix(s, n, ends[i]))
			return true;
	return false;
}

/* Starts an attribution that may wrap: "On Tue, Apr 06, 2021 at ...". */
static bool
is_attribution_start(const char *s, size_t n)
{
	return has_prefix(s, n, "On ") || has_prefix(s, n, "Le ") ||
	    has_prefix(s, n, "Am ") || has_prefix(s, n, "El ") ||
	    has_prefix(s, n, "Em ") || has_prefix(s, n, "Il ") ||
	    has_prefix(s, n, "Quoting ") || has_prefix(s, n, "Citing ");
}

/* A line of a unified diff or of the headers git puts above one. */
static bool
is_diff_line(const char *s, size_t n)
{
	static const char *const heads[] = { "diff ", "index ", "new file mode",
		"deleted file mode", "similarity index", "dissimilarity index",
		"rename from", "rename to", "copy from", "copy to", "old mode",
		"new mode", "Binary files" };
	size_t i;

	if (n == 0 || s[0] == ' ' || s[0] == '+' || s[0] == '-' ||
	    s[0] == '@' || s[0] == '\\' || s[0] == '\t')
		return true;
	for (i = 0; i < MLQ__ARRAY_SIZE(heads); i++)
		if (has_prefix(s, n, heads[i]))
			return true;
	return false;
}

static bool
is_diff_start(const struct cls_line *l, size_t i, size_t nl)
{
	const char *s = l[i].s;
	size_t n = l[i].len;

	if (has_prefix(s, n, "diff --git ") || has_prefix(s, n, "Index: ") ||
	    has_prefix(s, n, "@@ -"))
		return true;
	if (n == 3 && memcmp(s, "---", 3) == 0)
		return true; /* the patch separator: diffstat follows */
	return has_prefix(s, n, "--- ") && i + 1 < nl &&
	    has_prefix(l[i + 1].s, l[i + 1].len, "+++ ");
}

/*
 * "Q: Why is top-posting such a bad thing?" beside "A: Because ...": a
 * stock answer pasted in, not a question to anyone.
 */
static bool
is_faq_line(const struct cls_line *l, size_t i, size_t nl)
{
	bool q = has_prefix(l[i].s, l[i].len, "Q: "),
	     a = has_prefix(l[i].s, l[i].len, "A: ");

	if (!q && !a)
		return false;
	return (i > 0 && has_prefix(l[i - 1].s, l[i - 1].len, q ? "A: " : "Q: ")) ||
	    (i + 1 < nl &&
		has_prefix(l[i + 1].s, l[i + 1].len, q ? "A: " : "Q: "));
}

/* Words of two letters or more, letters only ("the", "should"). */
static size_t
prose_words(const char *s, size_t n)
{
	size_t i = 0, k, words = 0;

	while (i < n) {
		while (i < n && s[i] == ' ')
			i++;
		for (k = i; k < n && s[k] != ' '; k++)
			;
		if (k - i >= 2) {
			size_t j = i, e = k;

			/* "instead?", "Shouldn't": a word still. */
			while (e > i && strchr(".,;:!?", s[e - 1]) != NULL)
				e--;
			while (j < e && ((s[j] >= 'a' && s[j] <= 'z') ||
					    (s[j] >= 'A' && s[j] <= 'Z') ||
					    (s[j] == '\'' && j > i)))
				j++;
			words += j == e && e - i >= 2;
		}
		i = k;
	}
	return words;
}

/*
 * "FILE:LINE[:COL]: error|warning|note: ...", a compiler's words; a
 * checker's too: sparse's "FILE:LINE:COL: sparse: ... Should it be
 * static?" and smatch's "FILE:LINE FUNC() warn: ...".
 */
static bool
is_diagnostic_line(const char *s, size_t n)
{
	const char *p = s, *end = s + n, *name;
	int fields = 0;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	for (name = p; p < end && *p != ' ' && *p != ':';)
		p++;
	if (p == name)
		return false;
	/* "file.c: In function 'f':", "file.h: At top level:" */
	if (has_prefix(p, (size_t)(end - p), ": In function ") ||
	    has_prefix(p, (size_t)(end - p), ": At top level"))
		return true;
	/* ":12" and ":5": numbers after the file name. */
	while (p < end && *p == ':' && p + 1 < end && p[1] >= '0' &&
	    p[1] <= '9') {
		for (p++; p < end && *p >= '0' && *p <= '9'; p++)
			;
		fields++;
	}
	if (fields == 0 || p + 2 > end)
		return false;
	if (p[0] == ' ') {
		for (p++; p < end && *p != ' '; p++)
			;
		return p - 2 > name && p[-2] == '(' && p[-1] == ')' &&
		    (has_prefix(p, (size_t)(end - p), " warn: ") ||
			has_prefix(p, (size_t)(end - p), " error: "));
	}
	if (p[0] != ':' || p[1] != ' ')
		return false;
	p += 2;
	return has_prefix(p, (size_t)(end - p), "error") ||
	    has_prefix(p, (size_t)(end - p), "warning") ||
	    has_prefix(p, (size_t)(end - p), "note") ||
	    has_prefix(p, (size_t)(end - p), "fatal error") ||
	    has_prefix(p, (size_t)(end - p), "sparse: ");
}

/* C in the writer's own words: never prose, so never a question. */
static bool
is_code_line(const char *s, size_t n)
{
	size_t i = 0, lead = 0, words;

	/* Pasted `git am` output is a log, not a word of the writer's. */
	if (has_prefix(s, n, "Applying: ") || has_prefix(s, n, "error: ") ||
	    has_prefix(s, n, "Patch failed at ") || has_prefix(s, n, "hint: "))
		return true;
	/* A compiler's "file.c:12:5: error: ... did you mean 'x'?" */
	if (is_diagnostic_line(s, n))
		return true;
	/* A line that opens a C comment, after any line number, or ends
	 * one: a robot's listing of the source around a fault ("2008",
	 * the comment "Do we even need to bother with this?"), but not
	 * prose that names a comment in passing. */
	while (lead < n && (s[lead] == ' ' || s[lead] == '\t' ||
				is_digit((unsigned char)s[lead])))
		lead++;
	if (has_prefix(s + lead, n - lead, "/*") || has_suffix(s, n, "*/"))
		return true;
	/* A sentence with code in it ("I think (a > 0) should be (b <
	 * c->n).") is prose: three words or more, and the mark that ends
	 * a sentence. */
	words = prose_words(s, n);
	if (n > 0 && (s[n - 1] == '.' || s[n - 1] == '?' || s[n - 1] == '!') &&
	    words >= 3)
		return false;
	/* Nor is a line of wrapped prose that names a member: "I would
	 * rather do what all other callers of ->lookup() do and". */
	if (n > 0 && strchr(";{}", s[n - 1]) == NULL && words >= 8)
		return false;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < n && s[i] == '#' &&
	    (has_prefix(s + i, n - i, "#include") ||
		has_prefix(s + i, n - i, "#define") ||
		has_prefix(s + i, n - i, "#if")))
		return true;
	if (n > 0 && (s[n - 1] == ';' || s[n - 1] == '{' || s[n - 1] == '}'))
		return true;
	return contains(s, n, "==") || contains(s, n, "!=") ||
	    contains(s, n, "->") || contains(s, n, "&&") ||
	    contains(s, n, "||");
}

static bool
is_review_trailer(const char *s, size_t n)
{
	return cls_ack_trailer(s, n) || cls_reviewed_trailer(s, n) ||
	    cls_tested_trailer(s, n) || cls_nack_trailer(s, n);
}

/* Sorts every line; see the LINE_ kinds. */
static void
classify_lines(struct cls_line *l, size_t nl)
{
	size_t i, j, k;
	bool in_diff = false, stop = false, copy = false, past_patch = false;

	for (i = 0; i < nl; i++) {
		const char *s = l[i].s;
		size_t n = l[i].len;

		if (stop) {
			l[i].kind = LINE_DROP;
			/*
			 * Below an unquoted copy of the patch (Outlook's
			 * "-----Original Message-----"), a tester's trailer
			 * after the copy's diff is the writer's own.
			 */
			if (!copy)
				continue;
			if (is_diff_start(l, i, nl) ||
			    (n == 3 && memcmp(s, "---", 3) == 0))
				past_patch = true;
			else if (past_patch && !is_diff_line(s, n) &&
			    is_review_trailer(s, n))
				l[i].kind = LINE_OWN;
			continue;
		}
		if (is_quoted_line(s, n)) {
			in_diff = false;
			l[i].kind = LINE_QUOTE;
			continue;
		}
		if (is_signature_line(s, n) || is_original_line(l, i, nl)) {
			stop = true;
			copy = !is_signature_line(s, n);
			l[i].kind = LINE_DROP;
			continue;
		}
		/* "From: X" over "Date: Y" above a quote. */
		if (has_prefix(s, n, "From: ") && i + 1 < nl &&
		    has_prefix(l[i + 1].s, l[i + 1].len, "Date: ")) {
			l[i].kind = l[i + 1].kind = LINE_ATTRIB;
			i++;
			continue;
		}
		if (in_diff && is_diff_line(s, n)) {
			l[i].kind = n == 0 ? LINE_BLANK : LINE_DIFF;
			continue;
		}
		in_diff = false;
		if (is_diff_start(l, i, nl)) {
			in_diff = true;
			l[i].kind = LINE_DIFF;
			continue;
		}
		if (n == 0) {
			l[i].kind = LINE_BLANK;
			continue;
		}
		if (is_attribution_end(s, n)) {
			l[i].kind = LINE_ATTRIB;
			/* A wrapped "On ..., X\nwrote:" started up to 2 lines up. */
			for (j = i, k = 0; j > 0 && k < 2; j--, k++) {
				if (l[j - 1].kind != LINE_OWN)
					break;
				if (is_attribution_start(l[j - 1].s,
					l[j - 1].len)) {
					for (k = j - 1; k < i; k++)
						l[k].kind = LINE_ATTRIB;
					break;
				}
			}
			continue;
		}
		l[i].kind = is_code_line(s, n) || is_faq_line(l, i, nl)
		    ? LINE_CODE
		    : LINE_OWN;
	}
	/*
	 * A line ending in ':' right above a quote that names a person or a
	 * date is an attribution too ("Quoting X (2021-04-06):", "Em ter.,
	 * 6 de abr., X <x@y> escreveu:").
	 */
	for (i = 0; i + 1 < nl; i++) {
		if (l[i].kind != LINE_OWN || l[i].s[l[i].len - 1] != ':')
			continue;
		for (j = i + 1; j < nl && l[j].kind == LINE_BLANK; j++)
			;
		if (j < nl && l[j].kind == LINE_QUOTE &&
		    (memchr(l[i].s, '@', l[i].len) != NULL ||
			is_attribution_start(l[i].s, l[i].len)))
			l[i].kind = LINE_ATTRIB;
	}
}

/* ---- clauses ----------------------------------------------------------- */

struct cls_text {
	struct cls_line *lines;
	size_t nlines;
	struct cls_tok *toks;
	size_t ntoks, captoks;
	struct cls_clause *cls;
	size_t ncls, capcls;
	size_t open;	   /* first token of the open clause */
	size_t sent_first; /* first clause of the open sentence */
	size_t sent_tok;   /* first token of the open sentence */
	bool colon;	   /* the clause being closed ends with ':' */
	bool paren;	   /* the open clause began after '(' */
	bool oom;
};

static bool
grow(void *arrp, size_t *cap, size_t n, size_t size)
{
	void **arr = arrp;
	size_t ncap;
	void *p;

	if (n < *cap)
		return true;
	ncap = *cap ? *cap * 2 : 64;
	if (ncap > SIZE_MAX / size)
		return false;
	if ((p = realloc(*arr, ncap * size)) == NULL)
		return false;
	*arr = p;
	*cap = ncap;
	return true;
}

static void
add_tok(struct cls_text *x, const char *s, size_t n, size_t line)
{
	if (x->oom ||
	    !grow(&x->toks, &x->captoks, x->ntoks, sizeof(*x->toks))) {
		x->oom = true;
		return;
	}
	x->toks[x->ntoks].s = s;
	x->toks[x->ntoks].len = n;
	x->toks[x->ntoks].line = line;
	x->ntoks++;
}

/*
 * Closes the open clause; 'sentence' for . ! ?, 'question' for ?.  A '?'
 * right after a clause break ("(with lockdep)?") marks the clause before.
 */
static void
close_clause(struct cls_text *x, bool sentence, bool question, size_t line)
{
	struct cls_clause *c;

	if (x->oom)
		return;
	if (x->ntoks == x->open) {
		if (question && x->ncls > x->sent_first) {
			x->cls[x->ncls - 1].question = true;
			x->cls[x->ncls - 1].qline = line;
		}
	} else {
		if (!grow(&x->cls, &x->capcls, x->ncls, sizeof(*x->cls))) {
			x->oom = true;
			return;
		}
		c = &x->cls[x->ncls++];
		c->begin = x->open;
		c->end = x->ntoks;
		c->sent = x->sent_tok;
		c->question = question;
		c->qline = line;
		c->colon = x->colon;
		c->paren = x->paren;
		x->paren = false;
		x->open = x->ntoks;
	}
	if (sentence) {
		x->sent_first = x->ncls;
		x->sent_tok = x->ntoks;
	}
}

/* Joins two word characters: don't, net-next, 5.13, mtd/next. */
static bool
is_joiner(char c)
{
	return c == '\'' || c == '-' || c == '.' || c == '/' || c == '+';
}

static bool
ends_sentence(const char *s, size_t n, size_t j)
{
	char next;

	if (j + 1 == n)
		return true;
	next = s[j + 1];
	return next == ' ' || next == '\t' || next == '"' || next == '\'' ||
	    next == ')' || next == ']' || next == '.' || next == '!' ||
	    next == '?';
}

/*
 * A '?' after a space ends a sentence only as "Why here ? Shouldn't it":
 * a word before it, a capital after it, and no ':' of C's "a ? b : c"
 * or of a stack trace's "] ? __switch_to+0x40/0x70" ahead.
 */
static bool
spaced_question(const char *s, size_t n, size_t j)
{
	size_t k = j + 1;

	if (j < 2 || !is_alnum((unsigned char)s[j - 2]))
		return false;
	while (k < n && s[k] == ' ')
		k++;
	return k < n && s[k] >= 'A' && s[k] <= 'Z' &&
	    memmem(s + j, n - j, " : ", 3) == NULL;
}

/* Cuts one own line into words and clauses. */
static void
tokenize_line(struct cls_text *x, size_t li)
{
	const char *s = x->lines[li].s;
	size_t n = x->lines[li].len, j = 0, start;
	char c;

	while (j < n && (s[j] == ' ' || s[j] == '\t'))
		j++;
	/* A bullet starts afresh. */
	if (j + 1 < n && (s[j] == '-' || s[j] == '*') && s[j + 1] == ' ')
		close_clause(x, true, false, li);
	for (; j < n; j++) {
		c = s[j];
		if (is_alnum((unsigned char)c)) {
			start = j;
			while (j + 1 < n &&
			    (is_alnum((unsigned char)s[j + 1]) ||
				(is_joiner(s[j + 1]) && j + 2 < n &&
				    is_alnum((unsigned char)s[j + 2]))))
				j++;
			add_tok(x, s + start, j + 1 - start, li);
			continue;
		}
		switch (c) {
		case '?':
			/* A URL's query, or C's ternary "a ? b : c" (but
			 * "Why here ? Shouldn't it ..." asks twice). */
			if (!ends_sentence(s, n, j) ||
			    (j > 0 && s[j - 1] == ' ' && j + 1 < n &&
				!spaced_question(s, n, j)))
				break;
			/* 'a flag to say "is it OK to lock F2?".': a
			 * question quoted in a statement. */
			if (j + 2 < n && (s[j + 1] == '"' || s[j + 1] == '\'') &&
			    (s[j + 2] == '.' || s[j + 2] == ','))
				break;
			/* 'boils down to: "What is the purpose of ...?"': a
			 * question in quotes is reported, not put. */
			if (j + 1 < n && s[j + 1] == '"' &&
			    memchr(s, '"', j) != NULL)
				break;
			/* "In many (most?) cases": an aside, not asked. */
			if (j + 1 < n && s[j + 1] == ')' &&
			    memchr(s, '(', j) != NULL)
				break;
			close_clause(x, true, true, li);
			break;
		case '.':
		case '!':
			if (ends_sentence(s, n, j))
				close_clause(x, true, false, li);
			break;
		case ',':
		case ';':
		case ':':
		case '(':
			if (j + 1 < n && s[j + 1] == ')') {
				j++; /* foo(): a function, not a clause */
				break;
			}
			x->colon = c == ':';
			close_clause(x, false, false, li);
			x->colon = false;
			x->paren = c == '(';
			break;
		case ')':
		case '[':
		case ']':
		case '"':
		case '<':
		case '>':
		case '=':
			close_clause(x, false, false, li);
			break;
		default:
			break;
		}
	}
}

/*
 * Cuts the own lines into clauses.  A line carries on the sentence of the
 * line above unless a blank, dropped or short line ("Hi Aditya") lies
 * between: wrapped prose ("it always got\nNACKed because ...") is read
 * as one sentence.
 */
static void
tokenize(struct cls_text *x)
{
	size_t i, prev = SIZE_MAX, prev_words = 0, before;

	for (i = 0; i < x->nlines && !x->oom; i++) {
		if (x->lines[i].kind != LINE_OWN)
			continue;
		if (prev == SIZE_MAX || prev + 1 != i || prev_words <= 3)
			close_clause(x, true, false, prev);
		before = x->ntoks;
		tokenize_line(x, i);
		prev = i;
		prev_words = x->ntoks - before;
	}
	close_clause(x, true, false, prev);
}

/* ---- the classifier ---------------------------------------------------- */

/* Bit of a word's second byte (0 past its end) in a first_filter mask. */
static uint64_t
second_bit(unsigned char c)
{
	return (uint64_t)1 << (c & 63);
}

/* Marks a word that may start a pattern: its first two bytes. */
static void
can_start(uint64_t can[256], unsigned char a, unsigned char b)
{
	/* A typographic apostrophe (U+2019, e2 80 99) stands for "'". */
	can[a] |= second_bit(b);
	if (b == '\'')
		can[a] |= second_bit(0xe2);
	if (a == '\'')
		can[0xe2] |= second_bit(0x80);
}

/*
 * Marks in can[] the first two bytes (lower-cased) a word may have to
 * match one of the '|'-separated alternatives l[0..n); false when any word
 * might (a word class that looks inside words, an empty alternative, a
 * prefix of one byte: "a~").
 */
static bool
first_bytes(const char *l, size_t n, uint64_t can[256])
{
	const char *end = l + n, *bar;
	size_t k;
	unsigned char d;

	for (; l < end; l = bar + 1) {
		bar = memchr(l, '|', (size_t)(end - l));
		k = (size_t)((bar ? bar : end) - l);
		if (k == 5 && memcmp(l, "@nack", 5) == 0)
			can_start(can, 'n', 'a');
		else if (k == 2 && memcmp(l, "@v", 2) == 0) {
			for (d = '0'; d <= '9'; d++)
				can_start(can, 'v', d);
		} else if (k == 7 && memcmp(l, "@change", 7) == 0) {
			if (!first_bytes(CHANGE_VERB, strlen(CHANGE_VERB), can))
				return false;
		} else if (k == 0 || *l == '@' || *l == '~' ||
		    (k > 1 && l[1] == '~'))
			return false;
		else
			can_start(can, (unsigned char)l[0],
			    k > 1 ? (unsigned char)l[1] : 0);
		if (bar == NULL)
			break;
	}
	return true;
}

/*
 * Which words may start an unanchored pattern, by their first two bytes
 * (can[first] holds a bit per second byte): f->any when every word may
 * (an optional or negated first element, '*', a word class that looks
 * inside words).  Worked out once per rule (below).
 */
struct first_filter {
	bool any;
	uint64_t can[256];
};

static void
first_filter(const char *p, struct first_filter *f)
{
	size_t n = strcspn(p, " ");

	memset(f, 0, sizeof(*f));
	f->any = *p == '^' || n == 0 || *p == '!' || p[n - 1] == '?' ||
	    (n == 1 && *p == '*') || !first_bytes(p, n, f->can);
}

/*
 * Each pattern rule's filter, and whether the rule holds only on quoted
 * code, worked out on the first mail classified.
 */
static struct first_filter rule_filters[MLQ__ARRAY_SIZE(rule_table)];
static bool rule_on_code[MLQ__ARRAY_SIZE(rule_table)];
static pthread_once_t rule_filters_once = PTHREAD_ONCE_INIT;

static void
rule_filters_init(void)
{
	size_t k;

	for (k = 0; k < MLQ__ARRAY_SIZE(rule_table); k++) {
		if (rule_table[k].pat != NULL)
			first_filter(rule_table[k].pat, &rule_filters[k]);
		rule_on_code[k] =
		    strcmp(rule_table[k].name, RULE_WHAT_ABOUT_CODE) == 0 ||
		    strcmp(rule_table[k].name, RULE_NEED_ON_CODE) == 0 ||
		    strcmp(rule_table[k].name, RULE_NOT_NEEDED_ON_CODE) == 0;
	}
}

/*
 * Tries a pattern at each word of a clause; *first is where it matched.
 * Words that cannot start it are skipped by their first byte: this loop
 * is most of the classifier's time, and a pattern's first word rules out
 * nearly every word of a mail.
 */
static bool
clause_match(const char *p, const struct first_filter *f,
    const struct cls_tok *t, const struct cls_clause *c, size_t *first)
{
	size_t j;

	if (*p == '^') {
		*first = c->begin;
		return pat_match(p + 1, t, c->begin, c->end);
	}
	for (j = c->begin; j < c->end; j++) {
		if (!f->any &&
		    (t[j].len == 0 ||
			!(f->can[(unsigned char)mlq__lower(t[j].s[0])] &
			    second_bit(t[j].len > 1
				    ? (unsigned char)mlq__lower(t[j].s[1])
				    : 0))))
			continue;
		if (pat_match(p, t, j, c->end)) {
			*first = j;
			return true;
		}
	}
	return false;
}

static size_t
tag_index(unsigned tag)
{
	size_t i;

	for (i = 0; i < MLQ_TAG_COUNT && tag != 1u << i; i++)
		;
	return i;
}

static enum mlq_status
split_lines(const char *body, size_t len, struct cls_text *x)
{
	const char *p = body, *end = body + len, *nl;
	size_t n = 0, k;

	for (p = body; p < end; p = nl + 1, n++)
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
	if (n == 0)
		return MLQ_OK;
	if ((x->lines = calloc(n, sizeof(*x->lines))) == NULL)
		return MLQ_ENOMEM;
	for (p = body; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		k = (size_t)(nl - p);
		while (k > 0 &&
		    (p[k - 1] == '\r' || p[k - 1] == ' ' || p[k - 1] == '\t'))
			k--;
		/* Keep "-- ": it opens the signature. */
		if (k == 2 && (size_t)(nl - p) >= 3 && p[0] == '-' &&
		    p[1] == '-' && p[2] == ' ')
			k = 3;
		x->lines[x->nlines].s = p;
		x->lines[x->nlines].len = k;
		x->nlines++;
	}
	return MLQ_OK;
}

/*
 * The sentence clause j belongs to, as it stands in the mail: from its
 * first word to its last and the mark that ends it, across the own lines
 * it was wrapped over (and the next one where it is a word or two).
 */
static void
sentence(const struct cls_text *x, size_t j, const char **s, size_t *n)
{
	const struct cls_tok *first = &x->toks[x->cls[j].sent], *last;
	const struct cls_line *l;
	const char *e;
	size_t k = j;

	while (k + 1 < x->ncls && x->cls[k + 1].sent == x->cls[j].sent)
		k++;
	/* "NACK." alone says little: the sentence after it on its line
	 * ("There's no double free there.") comes along. */
	if (x->cls[k].end - x->cls[j].sent <= 2 && k + 1 < x->ncls &&
	    x->toks[x->cls[k + 1].begin].line ==
		x->toks[x->cls[k].end - 1].line) {
		size_t next = x->cls[k + 1].sent;

		for (k++; k + 1 < x->ncls && x->cls[k + 1].sent == next; k++)
			;
	}
	last = &x->toks[x->cls[k].end - 1];
	l = &x->lines[last->line];
	for (e = last->s + last->len; e < l->s + l->len &&
	     strchr(".?!)]\"'", *e) != NULL && *e != '\0';
	     e++)
		;
	*s = first->s;
	*n = (size_t)(e - first->s);
}

/*
 * Evidence as a human reads it: blanks and line breaks folded to one
 * space, and past MLQ__EVIDENCE_MAX characters cut at a word with "...".
 */
static char *
evidence_text(struct mlq_arena *a, const char *s, size_t n)
{
	char *out, *o, *cut = NULL;
	size_t i, chars = 0;
	bool blank = false;

	if ((out = mlq_arena_alloc(a, n + 4)) == NULL)
		return NULL;
	for (o = out, i = 0; i < n; i++) {
		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
		    s[i] == '\r') {
			blank = o > out;
			continue;
		}
		if (blank) {
			cut = o;
			*o++ = ' ';
			chars++;
			blank = false;
		}
		if (((unsigned char)s[i] & 0xc0) != 0x80 &&
		    chars++ == MLQ__EVIDENCE_MAX)
			break;
		*o++ = s[i];
	}
	if (i < n) {
		/* Back to the last word's end, if it is not too far. */
		if (cut != NULL && o - cut < 40)
			o = cut;
		memcpy(o, "\xe2\x80\xa6", 3); /* U+2026 */
		o += 3;
	}
	*o = '\0';
	return out;
}

/*
 * Whether the sentence whose first clause is k opens by naming whom it
 * speaks to: "Bruce, any further thoughts?", "Felipe, can this be
 * queued?".  A capitalized word alone before a comma, not a word that
 * opens prose.
 */
static bool
vocative_at(const struct cls_text *x, size_t k)
{
	static const char opener[] =
	    "hi|hello|hey|dear|thanks|thank|yes|no|ok|okay|well|so|also|and|"
	    "but|hmm|sorry|right|sure|indeed|agreed|honestly|again|actually|"
	    "otherwise|now|then|anyway|anyways|still|however|besides|instead|"
	    "ah|oh|nit|overall|first|second|third|finally|plus|please|btw|"
	    "fwiw|imho|imo|alright|great|cool|good|nice|wait|true|correct|"
	    "interesting|understood|exactly|yeah|yep|nope|regardless|meanwhile|"
	    "likewise|similarly|personally|technically|basically|generally|"
	    "frankly|ideally|unfortunately|fortunately|obviously|clearly|"
	    "apparently|secondly|lastly|additionally|furthermore|moreover|"
	    "thus|hence|therefore|here|there|otoh|hm|ugh|oops|whoops|ack|nak|"
	    "nack|sigh|perhaps|maybe|probably|really|seriously|also|lol";
	const struct cls_clause *c = &x->cls[k];
	const struct cls_tok *w;

	const char *ls;
	bool at, alone;

	if (c->end - c->begin != 1 || c->begin != c->sent)
		return false;
	w = &x->toks[c->begin];
	ls = x->lines[w->line].s;
	at = w->s > ls && w->s[-1] == '@';
	/* "Ard?": a sentence that is only a name asks that person. */
	alone = c->question && w->s + w->len < ls + x->lines[w->line].len &&
	    w->s[w->len] == '?' &&
	    !WORD_IN(w->s, w->len, "why|what|how|when|where|who|which|whom|"
				   "thoughts|comments|objections|ideas|"
				   "opinions|suggestions|anyone|anybody|"
				   "someone|somebody|everyone|correct|true|"
				   "agreed|fine|better|sense|again|more|else|"
				   "this|that|these|those|it|them|ok|okay|"
				   "right|really|seriously|sure|yes|no|any|"
				   "typo|huh|hmm|and|or|so|then|now");
	if (w->len < 2 || w->s[0] < 'A' || w->s[0] > 'Z' ||
	    w->s + w->len >= ls + x->lines[w->line].len ||
	    (w->s[w->len] != ',' && !alone &&
		!(at && w->s[w->len] == ':')))
		return false;
	for (size_t i = 1; i < w->len; i++)
		if (!((w->s[i] >= 'a' && w->s[i] <= 'z') || w->s[i] == '-'))
			return false;
	return !word_in(w->s, w->len, opener, sizeof(opener) - 1);
}

/* The first clause of the sentence clause j is in. */
static size_t
sentence_start(const struct cls_text *x, size_t j)
{
	while (j > 0 && x->cls[j - 1].sent == x->cls[j].sent)
		j--;
	return j;
}

/*
 * Whether clause j speaks to someone by name: its sentence opens with
 * the name, or the sentence before it in the same paragraph does ("Will,
 * thanks for testing! For this patch, did you notice ...?").
 */
static bool
vocative(const struct cls_text *x, size_t j)
{
	size_t k = sentence_start(x, j), p;

	if (vocative_at(x, k))
		return true;
	if (k == 0)
		return false;
	p = sentence_start(x, k - 1);
	/* The same paragraph: no line between the two that is not the
	 * previous sentence's own. */
	return x->toks[x->cls[k].begin].line <=
	    x->toks[x->cls[k - 1].end - 1].line + 1 &&
	    vocative_at(x, p);
}

/* Whether [p, end) is " Word Word," to the line's end: a name's rest. */
static bool
capitalized_to_comma(const char *p, const char *end)
{
	while (p < end && *p == ' ') {
		if (++p >= end || *p < 'A' || *p > 'Z')
			return false;
		while (p < end && ((*p >= 'a' && *p <= 'z') ||
				      (*p >= 'A' && *p <= 'Z') || *p == '-'))
			p++;
	}
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	return end - p == 1 && *p == ',';
}

/*
 * "Rafal," alone on the first own line, more of the writer's text below:
 * a name called, not a word said ("Thanks," "Hmm," as a line of their
 * own are not names).
 */
static bool
bare_vocative(const struct cls_text *x, const struct cls_line *l,
    const char *p, const char **name, size_t *n)
{
	static const char not_names[] =
	    "thanks|thank|thx|hi|hello|hey|hallo|cheers|regards|bye|best|"
	    "greetings|sincerely|dear|yes|no|nope|so|also|well|ok|okay|sure|"
	    "right|agreed|indeed|correct|sorry|actually|however|hmm|hm|ah|"
	    "oh|oops|great|good|nice|cool|alright|otherwise|anyway|first|"
	    "second|finally|then|now|again|here|applied|pulled|queued|ack|"
	    "nack|nak|btw|fwiw|imho|additionally|besides|still|plus|and|but|"
	    "or|true|interesting|honestly|frankly|unfortunately|fortunately|"
	    "personally|meanwhile|similarly|likewise|therefore|thus|hence";
	const char *end = l->s + l->len, *e;
	size_t i;

	if (p >= end || *p < 'A' || *p > 'Z')
		return false;
	for (e = p + 1; e < end && *e >= 'a' && *e <= 'z'; e++)
		;
	if (e - p < 2 || !capitalized_to_comma(e, end) || e >= end ||
	    *e != ',' || WORD_IN(p, (size_t)(e - p), not_names))
		return false;
	for (i = (size_t)(l - x->lines) + 1; i < x->nlines; i++)
		if (x->lines[i].kind == LINE_OWN)
			break;
	if (i == x->nlines)
		return false;
	*name = p;
	*n = (size_t)(e - p);
	return true;
}

/*
 * The one name a mail's first own line greets ("Hi Tony, (+ Kuba and
 * DaveM)" -> Tony, "Rafal," alone): whom it speaks to.  None for "Hi
 * all", or several.
 */
static bool
greeting(const struct cls_text *x, const char **name, size_t *n)
{
	static const char *const hello[] = { "Hi ", "Hello ", "Hey ", "Dear ",
		"Hallo ", "Hiya ", "Morning " };
	const struct cls_line *l = NULL;
	const char *p, *e, *end;
	size_t i;

	for (i = 0; i < x->nlines && l == NULL; i++)
		if (x->lines[i].kind == LINE_OWN)
			l = &x->lines[i];
	if (l == NULL)
		return false;
	end = l->s + l->len;
	for (p = l->s; p < end && (*p == ' ' || *p == '\t'); p++)
		;
	for (i = 0; i < MLQ__ARRAY_SIZE(hello); i++)
		if (has_prefix(p, (size_t)(end - p), hello[i]))
			break;
	if (i == MLQ__ARRAY_SIZE(hello))
		return bare_vocative(x, l, p, name, n);
	p += strlen(hello[i]);
	/* "Dear maintainers,": greets those who take patches. */
	if (p < end && has_prefix(p, (size_t)(end - p), "maintainer")) {
		for (e = p; e < end && *e >= 'a' && *e <= 'z'; e++)
			;
		*name = p;
		*n = (size_t)(e - p);
		return true;
	}
	if (p >= end || *p < 'A' || *p > 'Z')
		return false;
	for (e = p + 1; e < end && ((*e >= 'a' && *e <= 'z') ||
			    (*e >= 'A' && *e <= 'Z') || *e == '-');
	     e++)
		;
	while (e > p + 1 && e[-1] == '-') /* "Hi Olga-" */
		e--;
	/* "Hi Tony and Aditya": not one first name; "Hi Tony Nguyen,",
	 * "Hi Stable Kernel Team,": one, by its first word. */
	if (e < end && *e != ',' && *e != '!' && *e != ':' && *e != '-' &&
	    !has_prefix(e, (size_t)(end - e), ", ") &&
	    !has_prefix(e, (size_t)(end - e), " (") && !capitalized_to_comma(e, end))
		return false;
	*name = p;
	*n = (size_t)(e - p);
	return true;
}

/*
 * Clause c up to a reason given after token 'from' ("I've pushed this out
 * since the CI came back clean and it fixes John's issue"): the reason's
 * words do not cancel what it explains.
 */
static const struct cls_clause *
reason_cut(const struct cls_tok *t, const struct cls_clause *c, size_t from,
    struct cls_clause *cut)
{
	size_t i;

	for (i = from + 1; i < c->end; i++)
		if (WORD_IN(t[i].s, t[i].len, "since|because")) {
			*cut = *c;
			cut->end = i;
			return cut;
		}
	return c;
}

/* A commit id: seven or more hex digits, at least one of them a digit. */
static bool
is_commit_id(const char *w, size_t n)
{
	size_t i, digits = 0;

	if (n < 7 || n > 40)
		return false;
	for (i = 0; i < n; i++) {
		if (is_digit((unsigned char)w[i]))
			digits++;
		else if (mlq__lower(w[i]) < 'a' || mlq__lower(w[i]) > 'f')
			return false;
	}
	return digits > 0;
}

/*
 * Whether the clause, up to token 'upto', names a change other than the
 * one answered: "that patch was merged in 6.6", "Commit c5967721e106 was
 * merged in 6.9".  Said of the patch itself it would be "this" or "it".
 */
static bool
names_other_change(const struct cls_tok *t, const struct cls_clause *c,
    size_t upto)
{
	size_t i;

	for (i = c->begin; i < upto && i < c->end; i++) {
		if (is_commit_id(t[i].s, t[i].len))
			return true;
		/* The match may begin on the noun: "that [patch was merged]". */
		if (i + 1 <= upto && i + 1 < c->end &&
		    WORD_IN(t[i].s, t[i].len, "that|those") &&
		    WORD_IN(t[i + 1].s, t[i + 1].len,
			"patch|patches|commit|commits|series|change|changes|fix"))
			return true;
	}
	return false;
}

static bool under_quoted_diff(const struct cls_text *, size_t);

/* Whether rule k holds in clause c; *line is the evidence's line. */
static bool
rule_hits(size_t k, const struct cls_text *x, const struct cls_clause *c,
    size_t *line)
{
	const struct cls_rule *r = &rule_table[k];
	struct cls_clause cut;
	size_t first;

	if (r->clause_fn != NULL) {
		if (!r->clause_fn(x->toks, c))
			return false;
		*line = c->qline;
		first = c->end;
	} else {
		if (!clause_match(r->pat, &rule_filters[k], x->toks, c, &first))
			return false;
		*line = x->toks[first].line;
	}
	if (rule_on_code[k] && !under_quoted_diff(x, (size_t)(c - x->cls)))
		return false;
	if (r->veto != NULL &&
	    clause_has(x->toks, reason_cut(x->toks, c, first, &cut), r->veto,
		first))
		return false;
	/* "Testing the tag (now merged into Linus' tree)": an aside
	 * says what became of something else. */
	return r->tag != MLQ_TAG_APPLIED ||
	    (!c->question && !c->paren && !names_other_change(x->toks, c, first));
}

/* A quoted line of a diff: "> +foo();", "> -bar", "> @@ ...". */
static bool
is_quoted_diff(const struct cls_line *l)
{
	const char *s = l->s, *end = l->s + l->len;

	if (l->kind != LINE_QUOTE)
		return false;
	while (s < end && (*s == '>' || *s == ' '))
		s++;
	/* One space after the last '>' is the quote's; "> +x" and ">+x". */
	return s < end && (*s == '+' || *s == '-' ||
			      has_prefix(s, (size_t)(end - s), "@@"));
}

/*
 * Whether clause j is in the first paragraph of the writer's own text
 * right under a quoted line of the diff: an inline comment on that code.
 */
static bool
under_quoted_diff(const struct cls_text *x, size_t j)
{
	size_t i = x->toks[x->cls[j].sent].line;

	while (i > 0 && x->lines[i - 1].kind == LINE_OWN)
		i--;
	while (i > 0 && x->lines[i - 1].kind == LINE_BLANK)
		i--;
	return i > 0 && is_quoted_diff(&x->lines[i - 1]);
}

/*
 * Whether clause j answers quoted prose: the quote right above its block
 * of the writer's own text (blank lines, code and other paragraphs of
 * his own between) holds no line of a diff.
 */
static bool
under_quoted_prose(const struct cls_text *x, size_t j)
{
	size_t i = x->toks[x->cls[j].sent].line, q;

	while (i > 0 && (x->lines[i - 1].kind == LINE_OWN ||
			    x->lines[i - 1].kind == LINE_BLANK ||
			    x->lines[i - 1].kind == LINE_CODE))
		i--;
	if (i == 0 || x->lines[i - 1].kind != LINE_QUOTE)
		return false;
	for (q = i; q > 0 && x->lines[q - 1].kind == LINE_QUOTE; q--)
		if (is_quoted_diff(&x->lines[q - 1]))
			return false;
	return true;
}

/*
 * An inline comment that finds fault with the code it answers ("This
 * check is redundant.", "Unnecessary cast.", "leaks foo on error"): the
 * author is to change it, though nothing is asked in so many words.
 */
static bool
inline_critique(const struct cls_text *x, size_t j)
{
	static const char fault[] =
	    "unnecessary|redundant|needless|pointless|useless|superfluous|"
	    "unneeded|wrong|incorrect|bogus|broken|buggy|racy|leak|leaks|"
	    "leaking|leaked|typo|misspelled|misspelt|unused|duplicated|"
	    "overkill|deadlock|deadlocks|uninitialized|uninitialised|"
	    "overflow|overflows|underflow|off-by-one|dead";
	const struct cls_clause *c = &x->cls[j];
	size_t i, k;

	if (c->question || !under_quoted_diff(x, j))
		return false;
	for (i = c->begin; i < c->end; i++) {
		const struct cls_tok *w = &x->toks[i];

		/* "not needed", "no need", "isn't necessary" */
		if (i + 1 < c->end &&
		    WORD_IN(w->s, w->len, "not|no|isn't|aren't|don't|doesn't") &&
		    word_in(x->toks[i + 1].s, x->toks[i + 1].len,
			"needed|need|necessary|required", 30))
			return true;
		if (!word_in(w->s, w->len, fault, sizeof(fault) - 1))
			continue;
		/* "This is not wrong", "no leak here": denied. */
		for (k = c->begin; k < i; k++)
			if (word_in(x->toks[k].s, x->toks[k].len,
				"not|no|isn't|aren't|never|nothing|don't|doesn't|"
				"without|if|whether",
				67))
				break;
		if (k == i)
			return true;
	}
	return false;
}

/*
 * What a sentence says of the requests in it, by clause: SENT_REQUEST
 * when it asks for a change, so that ending in '?' ("Would you like to
 * avoid ...?") it is a request and not a question; SENT_WAIVED when the
 * writer takes the change on himself ("Small nit, but no need to resend,
 * I'll fix it up while applying").  NULL when out of memory.
 */
enum { SENT_REQUEST = 1, SENT_WAIVED = 2 };

static unsigned char *
mark_sentences(const struct cls_text *x)
{
	static const char *const waived[] = {
		"no need to|for? resend|respin|repost|send|re-send|a|another|"
		"new|v2|v3",
		"i'll|we'll|i|we|let will|can|me? "
		"fix|fixup|amend|adjust|tweak|correct|squash|reword|change",
		/* The maintainer made the change himself: "so I've updated
		 * this to be ...", "I've made those two changes". */
		"i've|we've|i|we made|updated|fixed|tweaked|adjusted|amended "
		"this|that|these|those|it|the|both|them",
		"while|when applying|merging|committing",
		/* Advice for the next patch, not a change to this one. */
		"when|while|before submitting|sending|posting",
		"in|for the? future",
		"next time",
		/* "If you, or anyone else, feels it should not be added,
		 * please let us know": an invitation to object. */
		"feels|thinks|believes|objects it|this|that|they? "
		"should|shouldn't|must|needs",
	};
	struct first_filter any = { .any = true };
	unsigned char *req;
	size_t j, e, k, line, first;
	bool asks, hit;

	if ((req = calloc(x->ncls + 1, sizeof(*req))) == NULL)
		return NULL;
	for (j = 0; j < x->ncls; j = e) {
		asks = hit = false;
		for (e = j; e < x->ncls && x->cls[e].sent == x->cls[j].sent; e++)
			asks |= x->cls[e].question;
		for (k = 0; k < MLQ__ARRAY_SIZE(waived) && !hit; k++)
			for (size_t i = j; i < e && !hit; i++)
				hit = clause_match(waived[k], &any, x->toks,
				    &x->cls[i], &first);
		if (hit)
			for (k = j; k < e; k++)
				req[k] |= SENT_WAIVED;
		if (!asks)
			continue;
		hit = false;
		for (k = 0; k < MLQ__ARRAY_SIZE(rule_table) && !hit; k++) {
			/* A request's own form makes the question one; not
			 * "please" ("Can you please describe ...?" asks for
			 * facts) nor a proposal's lead-in ("Something
			 * like:"), which cls_question weighs itself. */
			if (rule_table[k].tag != MLQ_TAG_CHANGES ||
			    rule_table[k].line_fn != NULL ||
			    rule_table[k].clause_fn == cls_please ||
			    rule_table[k].clause_fn == cls_proposal)
				continue;
			for (size_t i = j; i < e && !hit; i++)
				hit = rule_hits(k, x, &x->cls[i], &line);
		}
		for (k = j; k < e && hit; k++)
			req[k] |= SENT_REQUEST;
	}
	return req;
}

/*
 * Whether every change the mail asks for is a bare "X should be Y" said
 * to quoted prose, the writer's stance unsaid ("I think", "maybe"): in a
 * discussion below the patch that argues a point and asks nothing of the
 * author.  The review engine decides, as only it knows what was quoted.
 */
static bool
argues_only(const struct cls_text *x, const unsigned char *sent)
{
	size_t j, k, i, line;
	bool weak = false;

	for (k = 0; k < MLQ__ARRAY_SIZE(rule_table); k++) {
		if (rule_table[k].tag != MLQ_TAG_CHANGES ||
		    rule_table[k].line_fn == NULL)
			continue;
		for (j = 0; j < x->nlines; j++)
			if (x->lines[j].kind == LINE_OWN &&
			    rule_table[k].line_fn(x->lines[j].s,
				x->lines[j].len))
				return false;
	}
	for (j = 0; j < x->ncls; j++) {
		if (sent[j] & SENT_WAIVED)
			continue;
		if (inline_critique(x, j))
			return false;
		for (k = 0; k < MLQ__ARRAY_SIZE(rule_table); k++) {
			if (rule_table[k].tag != MLQ_TAG_CHANGES ||
			    rule_table[k].line_fn != NULL ||
			    !rule_hits(k, x, &x->cls[j], &line))
				continue;
			/* "Vladimir, ... you should": put to someone. */
			if (rule_table[k].clause_fn != cls_modal_request ||
			    !under_quoted_prose(x, j) || vocative(x, j))
				return false;
			for (i = x->cls[j].sent; i < x->cls[j].end; i++)
				if (WORD_IN(x->toks[i].s, x->toks[i].len,
					"think|guess|believe|agree|suggest|"
					"imo|imho|perhaps|maybe"))
					return false;
			weak = true;
		}
	}
	return weak;
}

/*
 * Appends to out an evidence row of tag 0: a marker for the review
 * engine (whom the mail greets, how it asks), never shown.  NULL when
 * out of memory.
 */
static struct mlq_evidence *
add_marker(struct mlq_arena *a, struct mlq_evidence *out, size_t *nev,
    const char *rule, const char *s, size_t n)
{
	if ((out = mlq_arena_grow(a, out, *nev, sizeof(*out))) == NULL ||
	    (out[*nev].line = mlq_arena_strndup(a, s, n)) == NULL)
		return NULL;
	out[*nev].tag = 0;
	out[*nev].rule = rule;
	(*nev)++;
	return out;
}

enum mlq_status
mlq_classify_reply(const char *body, size_t len, bool by_submitter,
    struct mlq_arena *a, unsigned *tags, struct mlq_evidence **ev, size_t *nev,
    struct mlq_err *err)
{
	struct cls_text x;
	size_t hit_line[MLQ_TAG_COUNT], hit_rule[MLQ_TAG_COUNT];
	size_t hit_cls[MLQ_TAG_COUNT];
	size_t voc_cls = SIZE_MAX, voc_line = 0, voc_rule = 0;
	const struct cls_rule *r;
	const struct cls_clause *c;
	struct mlq_evidence *out = NULL;
	unsigned char *sent = NULL;
	const char *s;
	size_t i, j, k, line, n;
	enum mlq_status st = MLQ_OK;

	*tags = 0;
	*ev = NULL;
	*nev = 0;
	memset(&x, 0, sizeof(x));
	for (i = 0; i < MLQ_TAG_COUNT; i++)
		hit_line[i] = hit_cls[i] = SIZE_MAX;
	if ((st = split_lines(body, len, &x)) != MLQ_OK)
		goto fail;
	classify_lines(x.lines, x.nlines);
	pthread_once(&rule_filters_once, rule_filters_init);
	tokenize(&x);
	if (x.oom) {
		st = MLQ_ENOMEM;
		goto fail;
	}

	if (!by_submitter && (sent = mark_sentences(&x)) == NULL) {
		st = MLQ_ENOMEM;
		goto fail;
	}
	for (k = 0; k < MLQ__ARRAY_SIZE(rule_table); k++) {
		r = &rule_table[k];
		if (r->others_only && by_submitter)
			continue;
		i = tag_index(r->tag);
		if (r->line_fn != NULL) {
			for (j = 0; j < x.nlines && j < hit_line[i]; j++)
				if (x.lines[j].kind == LINE_OWN &&
				    r->line_fn(x.lines[j].s, x.lines[j].len)) {
					hit_line[i] = j;
					hit_rule[i] = k;
					hit_cls[i] = SIZE_MAX;
				}
			continue;
		}
		for (j = 0; j < x.ncls; j++) {
			c = &x.cls[j];
			if (x.toks[c->begin].line >= hit_line[i])
				break;
			if (!rule_hits(k, &x, c, &line))
				continue;
			/* A request put as a question is a request only. */
			if (r->tag == MLQ_TAG_QUESTION &&
			    (sent[j] & SENT_REQUEST))
				continue;
			if (r->tag == MLQ_TAG_CHANGES && (sent[j] & SENT_WAIVED))
				continue;
			/* "Why? Because ...": the writer answers it himself. */
			if (r->tag == MLQ_TAG_QUESTION && j + 1 < x.ncls &&
			    word_in(x.toks[x.cls[j + 1].begin].s,
				x.toks[x.cls[j + 1].begin].len,
				"because|cause|simple|simply", 27))
				continue;
			/* "Bruce, any further thoughts?": put to someone by
			 * name, kept only if no other question is found. */
			if (r->tag == MLQ_TAG_QUESTION && vocative(&x, j)) {
				if (voc_cls == SIZE_MAX) {
					voc_cls = j;
					voc_line = line;
					voc_rule = k;
				}
				continue;
			}
			if (line < hit_line[i]) {
				hit_line[i] = line;
				hit_rule[i] = k;
				hit_cls[i] = j;
			}
			break;
		}
	}

	/* An inline comment that faults the code it answers. */
	i = tag_index(MLQ_TAG_CHANGES);
	for (j = 0; !by_submitter && hit_line[i] == SIZE_MAX && j < x.ncls;
	     j++)
		if (!(sent[j] & SENT_WAIVED) && inline_critique(&x, j)) {
			hit_line[i] = x.toks[x.cls[j].begin].line;
			hit_rule[i] = SIZE_MAX;
			hit_cls[i] = j;
		}

	i = tag_index(MLQ_TAG_QUESTION);
	if (hit_line[i] == SIZE_MAX && voc_cls != SIZE_MAX) {
		hit_line[i] = voc_line;
		hit_rule[i] = voc_rule;
		hit_cls[i] = voc_cls;
	}
	/*
	 * A maintainer's "applied" asks for nothing more of this patch:
	 * what follows is advice for next time or a script's boilerplate.
	 */
	if (hit_line[tag_index(MLQ_TAG_APPLIED)] != SIZE_MAX)
		hit_line[tag_index(MLQ_TAG_CHANGES)] = SIZE_MAX;
	for (i = 0; i < MLQ_TAG_COUNT; i++) {
		if (hit_line[i] == SIZE_MAX)
			continue;
		if ((out = mlq_arena_grow(a, out, *nev, sizeof(*out))) == NULL)
			goto oom;
		if (hit_cls[i] != SIZE_MAX)
			sentence(&x, hit_cls[i], &s, &n);
		else {
			s = x.lines[hit_line[i]].s;
			n = x.lines[hit_line[i]].len;
		}
		while (n > 0 && (*s == ' ' || *s == '\t')) {
			s++;
			n--;
		}
		out[*nev].tag = 1u << i;
		out[*nev].rule = i == tag_index(MLQ_TAG_QUESTION) &&
			hit_cls[i] == voc_cls && voc_cls != SIZE_MAX
		    ? MLQ__RULE_QUESTION_TO_NAME
		    : hit_rule[i] == SIZE_MAX ? "changes-inline-fault"
					      : rule_table[hit_rule[i]].name;
		if ((out[*nev].line = evidence_text(a, s, n)) == NULL)
			goto oom;
		*tags |= 1u << i;
		(*nev)++;
	}
	/* Only a first request that is such a sentence can make them all
	 * so: the full reading is spared every other mail. */
	i = tag_index(MLQ_TAG_CHANGES);
	if (hit_line[i] != SIZE_MAX && hit_rule[i] != SIZE_MAX &&
	    hit_cls[i] != SIZE_MAX &&
	    rule_table[hit_rule[i]].clause_fn == cls_modal_request &&
	    under_quoted_prose(&x, hit_cls[i]) && argues_only(&x, sent) &&
	    (out = add_marker(a, out, nev, MLQ__RULE_ARGUES, "", 0)) == NULL)
		goto oom;
	/* A request made on the code it quotes is the author's to meet,
	 * whomever the mail answers. */
	if (hit_line[i] != SIZE_MAX && hit_cls[i] != SIZE_MAX &&
	    under_quoted_diff(&x, hit_cls[i]) &&
	    (out = add_marker(a, out, nev, MLQ__RULE_ON_CODE, "", 0)) == NULL)
		goto oom;
	/* Whom the mail greets, for the store to tell whom it asks. */
	if ((*tags & (MLQ_TAG_QUESTION | MLQ_TAG_CHANGES)) &&
	    greeting(&x, &s, &n) &&
	    (out = add_marker(a, out, nev, MLQ__RULE_GREETING, s, n)) == NULL)
		goto oom;
	*ev = out;
	goto done;
oom:
	st = MLQ_ENOMEM;
fail:
	*tags = 0;
	*nev = 0;
	mlq_err_set(err, st, "classify: out of memory");
done:
	free(sent);
	free(x.lines);
	free(x.toks);
	free(x.cls);
	return st;
}
