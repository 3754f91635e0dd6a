#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlq-int.h"
#include "mbox-util.h"
#include "tap.h"

#define NACK MLQ_TAG_NACK
#define ACK  MLQ_TAG_ACK
#define REV  MLQ_TAG_REVIEWED
#define TEST MLQ_TAG_TESTED
#define QUES MLQ_TAG_QUESTION
#define CHG  MLQ_TAG_CHANGES
#define APPL MLQ_TAG_APPLIED

/* One reply; 'rule' is the rule expected to earn the first tag of 'tags'. */
struct ccase {
	const char *text;
	bool by_submitter;
	unsigned tags;
	const char *rule;
};

static const struct ccase cases[] = {
	/* nack */
	{ "NACK.\n", false, NACK, "nack-verdict" },
	{ "Nack. You need to hold the lock here.\n", false, NACK | CHG,
	    "nack-verdict" },
	{ "NAK, this crashes my test box on boot.\n", false, NACK,
	    "nack-verdict" },
	{ "nack on this part.\n", false, NACK, "nack-verdict" },
	{ "Hi Bob,\n\nnack to this as it lets fragmented frames through which is not\nsupported.\n",
	    false, NACK, "nack-verdict" },
	{ "Nacked-by: Some One <one@example.org>\n", false, NACK,
	    "nack-trailer" },
	{ "NAKed-by: Some One <one@example.org>\n", false, NACK,
	    "nack-trailer" },
	{ "Nacked-by : Some One <one@example.org>\n", false, NACK,
	    "nack-trailer" },
	{ "So this is wrong, I'm NAKing this.\n", false, NACK,
	    "nack-first-person" },
	{ "Until we know more, this has my nack:\n", false, NACK,
	    "nack-first-person" },
	{ "I'm sorry, but I have to nack this series.\n", false, NACK,
	    "nack-have-to" },
	{ "That's a NACK by the way.\n", false, NACK, "nack-is-a" },
	{ "Please consider this patch NACKed.\n", false, NACK,
	    "nack-consider" },
	{ "I don't think a NACK is warranted here.\n", false, 0, NULL },
	{ "This is not a NACK, just a remark.\n", false, 0, NULL },
	{ "No NACK from me.\n", false, 0, NULL },
	{ "He has a knack for finding these.\n", false, 0, NULL },
	{ "The device sends a NACK to the host when the FIFO is full.\n", false,
	    0, NULL },
	{ "The ACK/NAK handling lives in the core.\n", false, 0, NULL },
	{ "NAK packets are counted separately.\n", false, 0, NULL },
	{ "In the case of an ack the address is set, whereas in the case of a\nnack the old address must stay.\n",
	    false, 0, NULL },
	{ "We tried that before and it always got\nNACKed because of the DMA issue.\n",
	    false, 0, NULL },
	{ "On Tue, Apr 6, 2021 at 1:00 PM Someone <s@example.org> wrote:\n> NACK.\n\nWhy?\n",
	    false, QUES, "question-mark" },
	{ "Use a naked pointer here.\n", false, CHG, "changes-imperative" },
	/* ack, reviewed, tested */
	{ "Acked-by: Some One <one@example.org>\n", false, ACK, "ack-trailer" },
	{ "Acked-for-MFD-by: Some One <one@example.org>\n", false, ACK,
	    "ack-trailer" },
	{ "Acked-by: Some One <one@example.org>\n", true, 0, NULL },
	/* INTERFACE.md: ack is an Acked-by: given; prose is not one */
	{ "Ack.\n", false, 0, NULL },
	{ "ack, I will fix it\n", false, 0, NULL },
	{ "Ack for the DT part.\n", false, 0, NULL },
	{ "The hardware will ack the interrupt later.\n", false, 0, NULL },
	{ "Reviewed-by: Some One <one@example.org>\n", false, REV,
	    "reviewed-trailer" },
	{ "Tested-by: Some One <one@example.org>\n", false, TEST,
	    "tested-trailer" },
	{ "Reviewed-and-tested-by: Some One <one@example.org>\n", false,
	    REV | TEST, "reviewed-trailer" },
	{ "I will add my Reviewed-by: once v2 is out.\n", false, 0, NULL },
	/* question */
	{ "Did you see an actual bug, and if so, could\nyou share the details?\n",
	    false, QUES, "question-mark" },
	{ "Did you see an actual bug?\n", true, 0, NULL },
	{ "Ping?\n", false, 0, NULL },
	{ "Any update on this?\n", false, 0, NULL },
	{ "See https://lore.kernel.org/r/?q=foo for the thread.\n", false, 0,
	    NULL },
	{ "Something like:\n\n\tret = x ? y : z;\n", false, CHG,
	    "changes-proposal" },
	{ "> Why not use a mutex?\n\nGood point.\n", false, 0, NULL },
	/* A request put as a question is a request only. */
	{ "Can you drop these hunks?\n", false, CHG, "changes-can-you" },
	{ "Why don't you use the health reporter?\n", false, CHG,
	    "changes-suggest-question" },
	{ "Why don't you think it races?\n", false, QUES, "question-mark" },
	{ "Does this work with lockdep (CONFIG_PROVE_LOCKING)?\n", false, QUES,
	    "question-mark" },
	{ "Dave, can you take this through net?\n", false, 0, NULL },
	{ "Do you prefer to take this to your tree still, or should I pick it "
	  "up later?\n", false, 0, NULL },
	{ "Is this in your branch already?\n", false, 0, NULL },
	/* changes-requested */
	{ "Please fix the typo and resend.\n", false, CHG, "changes-please" },
	{ "Please send a v2 with the typo fixed.\n", true, 0, NULL },
	{ "Can you split this into two patches?\n", false, CHG,
	    "changes-can-you" },
	{ "You need to rebase this on net-next.\n", false, CHG,
	    "changes-you-should" },
	{ "Looks reasonable, send a new version.\n", false, CHG,
	    "changes-new-version" },
	{ "I'll send a v2 tomorrow.\n", false, 0, NULL },
	{ "v2 please.\n", false, CHG, "changes-version-please" },
	{ "Also fix the indentation in the next version.\n", false, CHG,
	    "changes-next-version" },
	{ "When you respin, drop the second hunk.\n", false, CHG,
	    "changes-when-you" },
	{ "This needs to be reworked.\n", false, CHG, "changes-needs" },
	{ "The cleanup should be a separate patch.\n", false, CHG,
	    "changes-separate-patch" },
	{ "Split it into a fix and a cleanup.\n", false, CHG, "changes-split" },
	{ "This no longer applies to the current tree.\n", false, CHG,
	    "changes-does-not-apply" },
	{ "With that fixed, it looks fine.\n", false, CHG,
	    "changes-with-fixed" },
	{ "Consider this a NAK from me.\n", false, NACK, "nack-consider" },
	{ "This gets a NACK from me.\n", false, NACK, "nack-from-me" },
	{ "Obviously still nack from me.\n", false, NACK, "nack-from-me" },
	{ "I would say NAK.\n", false, NACK, "nack-said" },
	{ "Sorry but NACK.\n", false, NACK, "nack-said" },
	{ "self-nak.\n", false, NACK, "nack-verdict" },
	{ "The host answers with a NAK.\n", false, 0, NULL },
	/* applied, and prose that only mentions applying */
	{ "Hurriedly applied this with the ACKs and pushed out.\n", false, APPL,
	    "applied-adverb" },
	{ "It's been added to the for-next topic branch in\n", false, APPL,
	    "applied-to-tree" },
	{ "They are currently applied to the Intel-wired-lan tree awaiting\n"
	  "validation.\n",
	    false, APPL, "applied-to-tree" },
	{ "Committed... (tag: nfs-utils-2-5-4-rc2)\n", false, APPL,
	    "applied-lead" },
	{ "Applied, thanks. Please note that tags should not be wrapped.\n",
	    false, APPL, "applied-lead" },
	{ "FWIW I applied v1 and v2 to compare.\n", false, 0, NULL },
	{ "I pushed it to a branch where it has been applied.\n", false, 0,
	    NULL },
	{ "Some of these were applied yesterday, weren't they?\n", false, QUES,
	    "question-mark" },
	{ "I'll queue these after -rc1.\n", false, 0, NULL },
	{ "Applying: foo: bar\nerror: patch failed: drivers/foo.c:10\n"
	  "Patch failed at 0001 foo: bar\n",
	    false, 0, NULL },
	/* a tester's trailer below an unquoted copy of the patch */
	{ "-----Original Message-----\nFrom: Intel-wired-lan <x@y> On Behalf Of "
	  "Tony\nSent: Thursday\nSubject: [PATCH] ice: foo\n\nDo the thing.\n\n"
	  "Reviewed-by: Collected Early <c@e>\nSigned-off-by: Tony <t@x>\n---\n"
	  " drivers/x.c | 1 +\n\ndiff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n"
	  "@@ -1 +1,2 @@\n a\n+b\n\nTested-by: Tony Tester <tt@intel.com>\n",
	    false, TEST, "tested-trailer" },
	{ "-----Original Message-----\nFrom: X <x@y>\nSent: Thursday\n\n"
	  "Reviewed-by: Collected Early <c@e>\n",
	    false, 0, NULL },
	/* a build robot's report, and its advice for next time */
	{ "Hi Maciej,\n\nThank you for the patch! Yet something to improve:\n\n"
	  "[auto build test ERROR on net-next/master]\n"
	  "[If your patch is applied to the wrong git tree, kindly drop us a "
	  "note.\nAnd when submitting patch, we suggest to use '--base' as "
	  "documented in\nhttps://git-scm.com/docs/git-format-patch]\n",
	    false, CHG, "changes-to-improve" },
	{ "And when submitting patch, we suggest to use '--base'.\n", false, 0,
	    NULL },
	{ "Next time, please Cc netdev.\n", false, 0, NULL },
	/* b4's thank-you and the stable queue's note */
	{ "On Mon, 12 Apr 2021 X wrote:\n> This series does a thing.\n\n"
	  "Applied to\n\n   https://git.kernel.org/pub/scm/linux/kernel/git/x/"
	  "y.git for-next\n\nThanks!\n\n[1/2] foo: bar\n      commit: "
	  "0123456789ab\n[2/2] foo: baz\n      commit: 23456789abcd\n\n"
	  "Best regards,\n",
	    false, APPL, "applied-lead" },
	{ "This is a note to let you know that I've just added the patch titled"
	  "\n\n    foo: bar\n\nto the 5.10-stable tree which can be found at:\n"
	  "    http://www.kernel.org/git/?p=linux/kernel/git/stable/stable-queue"
	  ".git;a=summary\n\nThe filename of the patch is:\n     foo-bar.patch\n"
	  "and it can be found in the queue-5.10 subdirectory.\n\nIf you, or "
	  "anyone else, feels it should not be added to the stable tree,\n"
	  "please let <stable@vger.kernel.org> know about it.\n",
	    false, 0, NULL },
	/* obligations that describe, or are the writer's own */
	{ "There are 3 commits that need to be looked at.\n", false, 0, NULL },
	{ "Members not listed are zeroed, so flags should already be zero.\n",
	    false, 0, NULL },
	{ "This is not ok, and we will have to report this.\n", false, 0, NULL },
	{ "I think what we need to establish is some norms.\n", false, 0, NULL },
	{ "Whoops; it needs this: would you like me to resend?\n", false, QUES,
	    "question-mark" },
	{ "All of them need to be reverted, if they have not been done so.\n",
	    false, 0, NULL },
	{ "You will need to rebase this.\n", false, CHG, "changes-modal" },
	/* more requests by form */
	{ "Maybe you should also consider to fix this error path in foo()\n"
	  "when it fails, as there is no need to continue.\n",
	    false, CHG, "changes-maybe" },
	{ "This can probably be __initdata since it's only used at init.\n",
	    false, CHG, "changes-can-be" },
	{ "This can be NULL when the device is gone.\n", false, 0, NULL },
	{ "2. Subject prefix.\n\nWith these changes:\n"
	  "Reviewed-by: A <a@b>\n",
	    false, REV | CHG, "reviewed-trailer" },
	{ "It means v2 with these two together is the best way to go.\n", false,
	    CHG, "changes-best-way" },
	{ "Also, I'm getting this new warning:\n\n  foo.c:12: unused x\n",
	    false, CHG, "changes-report" },
	{ "I'm not seeing any warning here.\n", false, 0, NULL },
	{ "We should figure out the reason for the failure first.\n", false, 0,
	    NULL },
	{ "Could you describe the race in the commit message?\n", false, CHG,
	    "changes-describe-in" },
	{ "Can you please describe the hardware conditions more thoroughly?\n",
	    false, QUES, "question-mark" },
	/* Requests put as questions, and what is no question at all. */
	{ "Perhaps add an entry in the MAINTAINERS file for this board?\n",
	    false, CHG, "changes-suggest-question" },
	{ "Can we just call this dma_mask?\n", false, CHG,
	    "changes-suggest-question" },
	{ "So shouldn't we then fix the drivers first?\n", false, CHG,
	    "changes-suggest-question" },
	{ "Isn't this what rhashtable is for?\n", false, CHG,
	    "changes-suggest-question" },
	{ "Given that history it seems worth calling out that case.\n", false,
	    CHG, "changes-worth" },
	{ "Could the test coverage please be extended to this case?\n", false,
	    0, NULL },
	{ "Now you send more broken patches, so what am I supposed to think "
	  "of that?\n",
	    false, 0, NULL },
	{ "  fs/nfsd/nfs4proc.c:1640:25: error: 'X' undeclared; did you mean "
	  "'Y'?\n",
	    false, 0, NULL },
	{ "   fs/nfs/super.c:1335:14: sparse: sparse: symbol 'nfs_timeout' was "
	  "not declared. Should it be static?\n",
	    false, 0, NULL },
	{ "fs/nfs/file.c:772 do_setlk() warn: should this be a bitwise op?\n",
	    false, 0, NULL },
	{ "Maybe missing a call to nfsd_last_thread in this case?\n", false,
	    CHG, "changes-suggest-question" },
	{ "Maybe collapse this patch and 1/5?\n", false, CHG,
	    "changes-suggest-question" },
	{ "Maybe it already does?\n", false, QUES, "question-mark" },
	{ "Maybe krb5-devel was not installed?\n", false, QUES,
	    "question-mark" },
	{ "So I don't think we need to clamp.\n", false, 0, NULL },
	{ "I'm testing with this set now and should have results today.\n",
	    false, 0, NULL },
	{ "I think they're all wrong and should be PagePrivate().\n", false,
	    CHG, "changes-modal" },
	{ "Can that be retrieved from the PCI information, or do drivers have "
	  "to tell it?\n",
	    false, QUES, "question-mark" },
	{ "Containers should normally work just fine with it.\n", false, 0,
	    NULL },
	{ "Sort of, yes.\n", false, 0, NULL },
	{ "Change looks good to me.\n", false, 0, NULL },
	{ "Move the rationale from the patch description to this comment, "
	  "maybe?\n",
	    false, CHG, "changes-imperative" },
	{ "Does anyone know why NFSv3 uses NFS_OFFSET_MAX?\n", false, 0,
	    NULL },
	{ "Make sense?\n", false, QUES, "question-mark" },
	{ "Testing the latest 'nfs-for-6.18-1' tag (now merged into Linus' "
	  "tree), with your changes, the server hangs.\n",
	    false, 0, NULL },
	{ "I was mistaken, I had also applied the 4th commit.\n", false, 0,
	    NULL },
	{ "I have also applied the 4th commit.\n", false, APPL,
	    "applied-i-have" },
	{ "Thanks, replaced the series in my -next branch with this "
	  "version.\n",
	    false, APPL, "applied-replaced" },
	{ "These two patches have replaced the v1 patches from last week in\n"
	  "the for-next branch at\n",
	    false, APPL, "applied-replaced" },
	{ "I replaced our iversion patch with this patch and got the same\n"
	  "improvement.\n",
	    false, 0, NULL },
	{ "Yes, that patch was merged in 6.6.  I don't think it matters here.\n",
	    false, 0, NULL },
	{ "Commit c5967721e106 was merged in 6.9.\n", false, 0, NULL },
	{ "It would be nice to make this a bit more sophisticated.\n", false,
	    CHG, "changes-would-help" },
	{ "It would be great if you can repost a plain-text version.\n",
	    false, CHG, "changes-would-help" },
	{ "Would be nice to avoid a bunch of the overly long lines.\n", false,
	    CHG, "changes-would-help" },
	{ "It might be good to capture here why the check is removed.\n",
	    false, CHG, "changes-would-help" },
	{ "Still would be great to add some basic RT tests in our lab.\n",
	    false, 0, NULL },
	{ "You probably want to close this file at the end of the test.\n",
	    false, CHG, "changes-you-want" },
	{ "So I think you'll want a new WB_start_dontcache bit.\n", false,
	    CHG, "changes-you-want" },
	{ "Do you want me to pick up this change directly, or would you want "
	  "to issue a pull request?\n",
	    false, QUES, "question-mark" },
	{ "That is all you really want\n", false, 0, NULL },
	{ "Might also want to check this when freeing a deleg stid too.\n",
	    false, CHG, "changes-you-want" },
	{ "It is not something you want to do through fsopen() and friends.\n",
	    false, 0, NULL },
	{ "I don't think you'd want to apply this to a tree without it.\n",
	    false, 0, NULL },
	{ "If you want to keep it, fine.\n", false, 0, NULL },
	{ "I think we rather want to disable READ_PLUS in pNFS for now.\n",
	    false, CHG, "changes-prefer" },
	{ "I think we just want to disable READ_PLUS in pNFS for now.\n",
	    false, CHG, "changes-you-want" },
	{ "I don't think we want to go there.\n", false, 0, NULL },
	{ "I was curious whether this was found by code inspection or because "
	  "you'd run across a case.\n",
	    false, QUES, "question-wondering" },
	{ "I wonder if it is time to stop putting this boilerplate in.\n",
	    false, 0, NULL },
	{ "I'm wondering if anyone else sees this.\n", false, 0, NULL },
	{ "I cannot accept a pr_warn(), even a rate limited one.\n", false,
	    CHG, "changes-cannot-accept" },
	{ "I can't take this until the merge window closes.\n", false, 0,
	    NULL },
	{ "Looks good to me.  Could Chuck take it with the nfsd stuff?\n",
	    false, 0, NULL },
	{ "Could this take the lock twice?\n", false, QUES, "question-mark" },
	{ "> +\tif (!S_ISREG(inode->i_mode))\n> +\t\treturn 0;\n\n"
	  "Is this check really needed?\n",
	    false, CHG, "changes-need-question" },
	{ "Is this check really needed?\n", false, QUES, "question-mark" },
	{ "Don't we also need to call kfree() on p in this case?\n", false,
	    CHG, "changes-suggest-question" },
	{ "The question boils down to: \"What is the background writeback "
	  "for?\"\n",
	    false, 0, NULL },
	{ "   2008\t/* Do we even need to bother with this?\n", false, 0, NULL },
	{ "Maybe just add /* ignored */ there, to make it clear we don't use "
	  "it.\n",
	    false, CHG, NULL },
	{ "I would rearrange the AT_* flags namespace this way.\n", false, CHG,
	    "changes-i-would" },
	{ "I'd just squash this into patch #19.\n", false, CHG,
	    "changes-i-would" },
	{ "I'd put high odds on the latter vs the former.\n", false, 0, NULL },
	{ "I remove this patch and everything works!\n", false, 0, NULL },
	{ "I think you can remove this check as well since the next function "
	  "has it.\n",
	    false, CHG, "changes-you-can" },
	{ "You can add this to the series.\n", false, 0, NULL },
	{ "You can send reverts in email if you want, whatever works best.\n",
	    false, 0, NULL },
	{ "This patch breaks LLVM build on linux-next.\n", false, CHG,
	    "changes-introduces" },
	{ "As this is a void function, what decision?  Please try and "
	  "rephrase appropriately.\n",
	    false, QUES | CHG, NULL },
	{ "Why can't kmem_cache_alloc_lru() be a simple wrapper?\n", false, CHG,
	    "changes-suggest-question" },
	{ "Why couldn't another thread have raced in here?\n", false, QUES,
	    "question-mark" },
	{ "What speaks against just moving the dput out of the locked "
	  "section?\n",
	    false, CHG, "changes-suggest-question" },
	{ "What's wrong with simply calling d_lookup_done() here?\n", false,
	    CHG, "changes-suggest-question" },
	{ "Frankly, I would rather do what all other callers of ->lookup() do "
	  "and\njust follow it with d_lookup_done(dentry), no matter what it "
	  "returns.\n",
	    false, CHG, "changes-prefer" },
	{ "Whenever you want to work with the page cache, you cannot assume "
	  "much.\n",
	    false, 0, NULL },
	{ "It would be nice to have a facility that ran tests on every "
	  "branch.\n",
	    false, 0, NULL },
	{ "I don't like to slow things down, but it would be great to have a\n"
	  "Link: to the report.\n",
	    false, CHG, "changes-would-help-have" },
	{ "A little more context in the commit message would be helpful.\n",
	    false, CHG, "changes-would-help-text" },
	{ "Any comments from anyone would also be welcome.\n", false, 0,
	    NULL },
	{ "The patch description is wrong, though, to exclude AUTH_TLS.\n",
	    false, CHG, "changes-wrong-text" },
	{ "The patch description is not wrong.\n", false, 0, NULL },
	{ "I think the easiest way would be to combine the two checks.\n",
	    false, CHG, "changes-best-way" },
	{ "Please don't do this.\n", false, CHG, "changes-please-dont" },
	{ "> -\tunwind_backtrace(regs, tsk);\n> +\tunwind_backtrace(regs, tsk, "
	  "loglvl);\n\nWhat about the non-unwind version?\n",
	    false, CHG, "changes-what-about" },
	{ "What about the ChromeOS bootloader?\n", false, QUES,
	    "question-mark" },
	{ "How about renaming it to foo_reset()?\n", false, CHG,
	    "changes-suggest-question" },
	{ "Please can you confirm this revert makes ethtool report the right "
	  "speed.\n",
	    false, 0, NULL },
	{ "In the meantime, I've pushed this out to for-next/fixes since the "
	  "CI came\nback clean and it fixes John's issue.\n",
	    false, APPL, "applied-i-took" },
	{ "This part of the comment needs updating since there is no more "
	  "copying.\n",
	    false, CHG, "changes-needs" },
	{ "I think it better to drop it until there is a real user of it.\n",
	    false, CHG, "changes-think-better" },
	{ "I don't think it better to drop it.\n", false, 0, NULL },
	{ "The wording in the comment is misleading.\n", false, CHG,
	    "changes-wrong-text" },
	{ "So we need a flag to say \"is it OK to lock folio F2?\".\n", false,
	    0, NULL },
	{ "Maybe something like this for the description?\n", false, CHG,
	    "changes-asked" },
	{ "Either give it a proper name or you could just add the argument "
	  "to vfs_mkdir() and change all the callers?\n",
	    false, CHG, "changes-asked" },
	{ "In the case it has to return a 32-bit inode it xors the high and "
	  "low parts.\n",
	    false, 0, NULL },
	{ "I don't mind taking it, but if you would rather keep it in the "
	  "nfsd tree that's fine by me too.\n",
	    false, 0, NULL },
	{ "I would rather keep it in the nfsd tree.\n", false, CHG,
	    "changes-prefer" },
	{ "Will, thanks for testing! Did you see any slowdown?\n", false, QUES,
	    MLQ__RULE_QUESTION_TO_NAME },
	/* An inline comment that faults the code it answers. */
	{ "> +\tif (p)\n> +\t\tkfree(p);\n\nThe check is redundant: kfree(NULL) "
	  "is fine.\n",
	    false, CHG, "changes-inline-fault" },
	{ "> -\tx = 1;\n\nThat's a guaranteed leak of both objects.\n", false,
	    CHG, "changes-inline-fault" },
	{ "> +\tx = 1;\n\nThis is not wrong, just unusual.\n", false, 0, NULL },
	{ "> +\tif (has_feature())\n\nGiven that this is a system feature now, we "
	  "don't need the\nextra check.\n",
	    false, CHG, "changes-not-needed" },
	{ "> +\tx = (int)y;\n\nThe cast is not needed.\n", false,
	    CHG, "changes-inline-fault" },
	{ "No need to resend, you don't need to worry about that.\n", false, 0,
	    NULL },
	{ "I still don't think this warrants a Fixes tag.\n", false, CHG,
	    "changes-no-tag" },
	{ "For simplicity's sake, let's just keep that time as a number of "
	  "seconds.\n",
	    false, CHG, "changes-lets" },
	{ "Let's see what Trond thinks.\n", false, 0, NULL },
	{ "Maybe CONFIG_NFS_LOCALIO_SUPPORT here too?\n", false, CHG,
	    "changes-suggest-question" },
	{ "Maybe here too?\n", false, QUES, "question-mark" },
	{ "Maybe bvec_set_zero_page()?\n", false, CHG,
	    "changes-suggest-question" },
	{ "Maybe later?\n", false, QUES, "question-mark" },
	{ "For the NFSD piece: Acked-by: Chuck Lever <cel@example.org>\n", false,
	    ACK, "ack-trailer" },
	{ "[Jack Wang] Acked-by: Jack Wang <jw@example.com>\n", false, ACK,
	    "ack-trailer" },
	{ "Excellent; pushed with Jeff's R-b and Alexandr's T-b.\n", false,
	    APPL, "applied-lead-picked" },
	{ "The description does not match the contents of the patch.\n",
	    false, CHG, "changes-text-mismatch" },
	{ "Some commit message improvements are needed:\n", false, CHG,
	    "changes-text-needed" },
	{ "Any reason not to just determine the length inside the "
	  "tracepoint?\n",
	    false, CHG, "changes-reason-not" },
	{ "Consider adding a new section in Documentation/nfs/exporting.rst.\n",
	    false, CHG, "changes-consider" },
	{ "Please consider applying this incremental patch.\n", false, 0,
	    NULL },
	{ "I'm seeing several LTP tests failing, with bisections pointing to "
	  "this commit.\n",
	    false, CHG, "changes-bisected" },
	{ "This patch potentially introduces a client-controlled DoS "
	  "vector.\n",
	    false, CHG, "changes-introduces" },
	{ "This patch doesn't introduce any regression.\n", false, 0, NULL },
	{ "Would you be willing to test this patch for SERVICE_ACTION_IN_16?\n",
	    false, QUES, "question-mark" },
	{ "Doesn't this have the same bug as the sysfs shutdown?\n", false,
	    QUES, "question-mark" },
	{ "Seems like this ought to go in ahead of the rest of the set.\n",
	    false, 0, NULL },
	{ "Please consider adding this patch to the 6.12-stable queue.\n",
	    false, 0, NULL },
	{ "The patch description doesn't explain why this change is needed.\n",
	    false, CHG, "changes-text-mismatch" },
	{ "The patch description does mention the header.\n", false, 0,
	    NULL },
	{ "Consider this a NAK.\n", false, NACK, "nack-consider" },
	{ "Then what was the point of including anything?\n", false, 0,
	    NULL },
	{ "> +\tif (!p)\n> +\t\treturn;\n\nWhat's the point of this check?\n",
	    false, CHG, "changes-need-question" },
	{ "Maybe we try to remove suid once more at the end if the copy "
	  "succeeds?\n",
	    false, CHG, "changes-suggest-question" },
	{ "I'd kinda like to keep that feature of this code.\n", false, CHG,
	    "changes-like-to" },
	{ "I'd like to see the numbers before and after.\n", false, 0, NULL },
	{ "Much more detail on the overall objective and the observed "
	  "results, please?\n",
	    false, CHG, "changes-text-please" },
	{ "Can the patch description provide some rationale for the lock "
	  "ordering?\n",
	    false, CHG, "changes-text-can" },
	{ "This is not the correct way to submit patches for the stable "
	  "tree.\n",
	    false, CHG, "changes-not-right" },
	{ "I'm not sure this is the right place.\n", false, 0, NULL },
	{ "This should make v5.18, but we may get it in sooner.\n", false, 0,
	    NULL },
	{ "I'm not going to pass judgement on whether or not cifs should be "
	  "doing cross-sb copies.\n",
	    false, 0, NULL },
	{ "> +#ifdef CONFIG_FOO\n> +\tfoo();\n> +#endif\n\nDo we need the "
	  "#ifdefery here?\n",
	    false, CHG, "changes-need-question" },
	{ "Do we need the #ifdefery in the driver at all?\n", false, QUES,
	    "question-mark" },
	{ "> +\tfoo_fix(x);\n\nIn another thread we realised that the array "
	  "syntax is not\nneeded here, so I've updated this to be a pointer.\n",
	    false, 0, NULL },
	{ "The check is redundant, I think.\n", false, 0, NULL },
	{ "> Some prose of the author.\n\nThat would be wrong.\n", false, 0,
	    NULL },
	{ "Also should the clock be left enabled on errors?\n", false, QUES,
	    "question-mark" },
	{ "Shouldn't the clock be disabled on errors?\n", false, CHG,
	    "changes-modal" },
	{ "I think (bytes_copied > 0) should be (total < copy->count).\n", false,
	    CHG, "changes-modal" },
	{ "if (a->b == c)\n\treturn d ? e : f;\n", false, 0, NULL },
	{ "A: http://en.wikipedia.org/wiki/Top_post\n"
	  "Q: Were do I find info about this thing called top-posting?\n"
	  "A: Because it messes up the order in which people read text.\n"
	  "Q: Why is top-posting such a bad thing?\n",
	    false, 0, NULL },
	{ "I'm sorry, but I have to nack this series. Why? Because it breaks "
	  "the ABI.\n",
	    false, NACK, "nack-have-to" },
	{ "Since these are fixes, could you provide a Fixes: tag for each "
	  "one?\n",
	    false, CHG, "changes-tag" },
	{ "This needs a Fixes: tag.\n", false, CHG, "changes-needs" },
	{ "So how about consolidating them into ethernet.txt?\n", false, CHG,
	    "changes-suggest-question" },
	{ "It should be able to use the generic functions, shouldn't it?\n",
	    false, CHG, "changes-modal" },
	{ "Slowpath which takes 30 seconds to complete, seriously?\n", false, 0,
	    NULL },
	{ "LGTM, we need to trust both driver and tools here.\n", false, 0,
	    NULL },
	{ "Then there would be a debate if FW update should be moved too.\n",
	    false, 0, NULL },
	{ "If it is going to drop these values it should drop the defines.\n",
	    false, CHG, "changes-modal" },
	{ "Doesn't the i210 card use the igc driver?\n", false, QUES,
	    "question-mark" },
	{ "Better would be:\n\n\tfoo(bar);\n", false, CHG,
	    "changes-better-would" },
	{ "Nack. Remove the netdev during re-init.\n", false, NACK | CHG,
	    "nack-verdict" },
	{ "Please look one line further up: there is a refcount_inc().\n",
	    false, 0, NULL },
	/* a question put to someone by name: the store weighs the name */
	{ "Bruce, any further thoughts?\n", false, QUES, "question-to-name" },
	{ "Bruce, any further thoughts?\n\nWhy is this needed?\n", false, QUES,
	    "question-mark" },
	{ "Thanks, why is this needed?\n", false, QUES, "question-mark" },
	/* requests by mood: obligation, preference, suggestion */
	{ "The prefix in the title should be \"mt7601u:\".\n", false, CHG,
	    "changes-modal" },
	{ "Vladimir, since this is shared, you really should use active low.\n",
	    false, CHG, "changes-modal" },
	{ "It should be applied to stable too.\n", false, 0, NULL },
	{ "This should work fine.\n", false, 0, NULL },
	{ "That should be fine.\n", false, 0, NULL },
	{ "I should have caught this earlier.\n", false, 0, NULL },
	{ "I've fixed this up, but please note that tags should not be wrapped.\n",
	    false, 0, NULL },
	{ "I'd suggest moving this into a helper.\n", false, CHG,
	    "changes-prefer" },
	{ "It would be better to return -EINVAL here.\n", false, CHG,
	    "changes-better" },
	{ "Maybe we could drop the lock earlier.\n", false, CHG,
	    "changes-maybe" },
	{ "Sounds good, still a little long. Maybe:\n\n> foo: bar\n", false, CHG,
	    "changes-proposal" },
	{ "I would start by tracing the calls, something like:\n"
	  " trace-cmd record -e sched\n", false, 0, NULL },
	{ "Perhaps, lspci output and the dmesg log?\n", false, QUES,
	    "question-mark" },
	{ "Would you like to avoid the duplicate code?\n", false, CHG,
	    "changes-suggest-question" },
	{ "Is it worth adding a Fixes: tag?\n", false, CHG,
	    "changes-suggest-question" },
	{ "How about a helper for this?\n", false, CHG,
	    "changes-suggest-question" },
	{ "Is there a need to call it twice?\n", false, QUES, "question-mark" },
	/* a request put as a question is a request only */
	{ "Could we keep a macro for the buffer size?\n", false, CHG,
	    "changes-asked" },
	{ "To keep the history in one place, can you reply to the\npatch "
	  "thread with the new numbers?\n", false, CHG, "changes-asked" },
	{ "Can you describe the race in the commit message?\n", false, CHG,
	    "changes-describe-in" },
	{ "Can you describe how the race happens?\n", false, QUES,
	    "question-mark" },
	{ "Can you reproduce it with lockdep enabled?\n", false, QUES,
	    "question-mark" },
	{ "Mind renaming the helper while at it?\n", false, CHG,
	    "changes-asked" },
	{ "Did you mean dma_unmap_page here?\n", false, CHG, "changes-asked" },
	{ "Surely that is supposed to read \"cannot\"?\n", false, CHG,
	    "changes-asked" },
	{ "Couldn't the driver take the generic path instead?\n", false, CHG,
	    "changes-suggest-question" },
	{ "Is the generic path not enough here, rather than a copy?\n", false,
	    CHG, "changes-asked" },
	{ "Why is the generic path used instead?\n", false, QUES,
	    "question-mark" },
	{ "Maybe the check could move into the caller?\n", false, CHG,
	    "changes-asked" },
	{ "If the timeout is all you need then how about a killable wait?\n",
	    false, CHG, "changes-asked" },
	{ "I don't think the property is required, is it?\n", false, CHG,
	    "changes-asked" },
	{ "In a few (most?) cases the lock is already held.\n", false, 0,
	    NULL },
	{ "The rest looks fine to me. Jane?\n", false, QUES,
	    "question-to-name" },
	/* please and a verb */
	{ "Please only warn when the probe is not deferred.\n", false, CHG,
	    "changes-please-do" },
	{ "Please don't add another module parameter.\n", false, CHG,
	    "changes-please-do" },
	{ "Please do not try to frame it that way.\n", false, 0, NULL },
	{ "Please find the log attached.\n", false, 0, NULL },
	{ "If you got this by mistake, please notify the sender.\n", false, 0,
	    NULL },
	{ "This is a fix of its own, so move it to a separate patch.\n", false,
	    CHG, "changes-imperative" },
	{ "It fixes a bug, so move to a separate patch.\n", false, CHG,
	    "changes-imperative" },
	{ "Why is the clock set here ? Shouldn't the PHY do it instead ?\n",
	    false, QUES | CHG, "question-mark" },
	{ "[  12.460936]  ? __schedule+0x40/0x70\n", false, 0, NULL },
	{ "Shouldn't it be \"if (len == max)\" instead?\n", false, CHG,
	    "changes-modal" },
	{ "\tret = ok ? Foo : bar;\n", false, 0, NULL },
	{ "Which tree should this go through?\n", false, QUES,
	    "question-mark" },
	{ "Having a second queue should make it faster.\n", false, 0, NULL },
	{ "You shouldn't have to care about that.\n", false, 0, NULL },
	{ "Right, you would need to change every caller for that.\n", false,
	    0, NULL },
	{ "As I understand it the table should be in host memory.\n", false,
	    CHG, "changes-modal" },
	{ "In my understanding the table should be in host memory.\n", false,
	    0, NULL },
	{ "It is added by the tooling when the other one is missing.\n", false,
	    0, NULL },
	{ "The hunk does not apply when the other series is in.\n", false, 0,
	    NULL },
	{ "I assume it shouldn't make a difference for v4?\n", false, QUES,
	    "question-mark" },
	{ "The new path needs to be tested on real hardware.\n", false, 0,
	    NULL },
	{ "The value should be checked before it is used.\n", false, CHG,
	    "changes-modal" },
	{ "Not a bug, rather a limit of the hardware?\n", false, QUES,
	    "question-mark" },
	{ "Could the core do it rather than the driver?\n", false, CHG,
	    "changes-asked" },
	{ "The title is long, can reduce it a bit?\n", false, CHG,
	    "changes-can" },
	{ "So I'd ask you to rebase this on top of net-next.\n", false, CHG,
	    "changes-ask-you" },
	{ "Nit: missing blank line after declarations.\n", false, CHG,
	    "changes-nit" },
	{ "Style nit: the \"case\" and \"switch\" lines are not lined up.\n",
	    false, CHG, "changes-nit" },
	{ "A minor nit: that might be easier to follow as\n", false, CHG,
	    "changes-nit" },
	{ "Whoops, sorry, just a typo, I meant 5.4-rc.\n", false, 0, NULL },
	{ "These do not apply on top of Bruce's changes in the same area.\n",
	    false, CHG, "changes-does-not-apply" },
	{ "The \"risk of change\" arguments don't apply here.\n", false, 0,
	    NULL },
	{ "This hunk causes a bunch of new sparse warnings.\n", false, CHG,
	    "changes-introduces" },
	{ "Style: Replace the assignment in these if statements, bitte?\n",
	    false, CHG, "changes-imperative" },
	{ "Missing Signed-off-by? And add a little text that explains why "
	  "this change is needed?\n",
	    false, CHG, "changes-tag" },
	{ "And make it a symbolic constant.\n", false, CHG,
	    "changes-imperative" },
	{ "NFS: Add READ_PLUS data segment support\n", false, 0, NULL },
	{ "1) Address David's feedback about the ip_mtu() calls.\n", false, 0,
	    NULL },
	{ "You changed the prototype but forgot to update the kdoc.\n", false,
	    CHG, "changes-forgot" },
	{ "Feedback from the previous version has not been addressed.\n", false,
	    CHG, "changes-not-addressed" },
	{ "The Signed-off-by of the author is missing.\n", false, CHG,
	    "changes-missing" },
	{ "I think this is the wrong approach.\n", false, CHG,
	    "changes-wrong" },
	{ "Use devm_kzalloc() instead.\n", false, CHG, "changes-instead" },
	{ "s/blew/below/\n", false, CHG, "changes-substitute" },
	{ "s/blew/below/\n", true, 0, NULL },
	{ "No need to resend for this.\n", false, 0, NULL },
	{ "Feel free to add my Acked-by.\n", false, 0, NULL },
	/* applied */
	{ "Applied to net-next, thanks!\n", false, APPL, "applied-lead" },
	{ "Queued for 5.13.\n", false, APPL, "applied-lead" },
	{ "Pulled, thanks.\n", false, APPL, "applied-lead" },
	{ "Thanks, applied.\n", false, APPL, "applied-lead" },
	{ "Picked up, thanks.\n", false, APPL, "applied-lead-picked" },
	{ "Series applied, thanks.\n", false, APPL, "applied-short" },
	{ "The patch\n\n   foo: fix bar\n\nhas been applied to the spi tree at\n",
	    false, APPL, "applied-has-been" },
	{ "I've applied it to my tree.\n", false, APPL, "applied-short" },
	{ "We have now queued it for 5.14.\n", false, APPL, "applied-i-have" },
	{ "Ok, I took patch #1 into net-next.\n", false, APPL,
	    "applied-i-took" },
	{ "I fixed it up and applied the series.\n", false, APPL,
	    "applied-and" },
	{ "I have this applied to the wired-lan tree for testing.\n", false,
	    APPL, "applied-have-it" },
	{ "Hello:\n\nThis patch was applied to netdev/net-next.git (main):\n",
	    false, APPL, "applied-passive" },
	{ "Once this is applied, we can drop the hack.\n", false, 0, NULL },
	{ "If this gets applied, the driver breaks.\n", false, 0, NULL },
	{ "It should be applied to stable too.\n", false, 0, NULL },
	{ "It does not apply cleanly, can you rebase?\n", false, CHG,
	    "changes-can-you" },
	{ "I applied it on top of rc3 and it boots fine.\n", false, 0, NULL },
	{ "I took a closer look at the trace.\n", false, 0, NULL },
	{ "Applied, thanks!\n", true, APPL, "applied-lead" },
	/* own text */
	{ "Looks good.\n\n-- \nApplied Sciences Lab\nWhy not?\n", false, 0,
	    NULL },
	{ "Foo wrote:\n> Applied, thanks!\n", false, 0, NULL },
	{ "On Tue, Apr 06, 2021 at 07:16:56PM -0500, Someone Who Asks?\nwrote:\n> x\nOk.\n",
	    false, 0, NULL },
	{ "See below.\n\ndiff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-\ta = b ? c : d;\n+\ta = b;\n",
	    false, 0, NULL },
	{ "Fine by me.\n\n-----Original Message-----\nFrom: x\nSent: y\n\nNACK?\n",
	    false, 0, NULL },
	{ "From: Some One <one@example.org>\nDate: Mon, 1 Jan 2024\n\n> x\n\nNack.\n",
	    false, NACK, "nack-verdict" },
	{ "Why?\r\n\r\nNACK.\r\n", false, NACK | QUES, "nack-verdict" },
	{ "", false, 0, NULL },
};

static unsigned
classify(const char *s, size_t n, bool sub, const char **rule, size_t *nev)
{
	struct mlq_arena *a = mlq_arena_new();
	struct mlq_evidence *ev;
	unsigned tags = 0;
	static char rbuf[64];

	*rule = NULL;
	if (a == NULL)
		return ~0u;
	if (mlq_classify_reply(s, n, sub, a, &tags, &ev, nev, NULL) != MLQ_OK)
		tags = ~0u;
	else if (*nev > 0) {
		snprintf(rbuf, sizeof(rbuf), "%s", ev[0].rule);
		*rule = rbuf;
	}
	mlq_arena_free(a);
	return tags;
}

static void
test_names(void)
{
	unsigned t;
	int s;

	for (t = 1; t < 1u << MLQ_TAG_COUNT; t <<= 1)
		is_int(mlq_tag_from_name(mlq_tag_name(t)), t,
		    "tag %s round-trips", mlq_tag_name(t));
	is_str(mlq_tag_name(MLQ_TAG_CHANGES), "changes-requested",
	    "changes tag name");
	ok(mlq_tag_name(0) == NULL && mlq_tag_name(3) == NULL &&
		mlq_tag_name(1u << MLQ_TAG_COUNT) == NULL,
	    "no name for 0, two bits or an unknown bit");
	is_int(mlq_tag_from_name("NACK"), 0, "tag names are lower case");
	is_int(mlq_tag_from_name(""), 0, "empty tag name");
	for (s = MLQ_STATE_PENDING; s <= MLQ_STATE_REVERTED; s++)
		is_int(mlq_state_from_name(mlq_state_name((enum mlq_state)s)),
		    s, "state %s round-trips",
		    mlq_state_name((enum mlq_state)s));
	is_str(mlq_state_name(MLQ_STATE_CHANGES), "changes-requested",
	    "changes state name");
	ok(mlq_state_name(MLQ_STATE_NONE) == NULL, "no name for NONE");
	is_int(mlq_state_from_name(""), MLQ_STATE_NONE, "\"\" is NONE");
	is_int(mlq_state_from_name("merged-ish"), MLQ_STATE_NONE,
	    "unknown is NONE");
	is_int(mlq_state_from_name("merged"), MLQ_STATE_MERGED,
	    "merged, added last");
}

static void
test_cases(void)
{
	const char *rule, *name;
	size_t i, k, nev;
	unsigned tags;
	bool seen;

	for (i = 0; i < MLQ__ARRAY_SIZE(cases); i++) {
		tags = classify(cases[i].text, strlen(cases[i].text),
		    cases[i].by_submitter, &rule, &nev);
		is_int(tags, cases[i].tags, "case %zu tags: %.40s", i,
		    cases[i].text);
		if (cases[i].rule != NULL)
			is_str(rule, cases[i].rule, "case %zu rule", i);
	}
	/* Every rule of the table has a positive case. */
	for (k = 0; (name = mlq__classify_rule_name(k)) != NULL; k++) {
		seen = false;
		for (i = 0; i < MLQ__ARRAY_SIZE(cases) && !seen; i++) {
			if (cases[i].rule == NULL)
				continue;
			seen = strcmp(cases[i].rule, name) == 0;
			if (!seen && cases[i].tags != 0) {
				/* Rules of later tags show in later evidence. */
				struct mlq_arena *a = mlq_arena_new();
				struct mlq_evidence *ev;
				size_t j;

				mlq_classify_reply(cases[i].text,
				    strlen(cases[i].text),
				    cases[i].by_submitter, a, &tags, &ev, &nev,
				    NULL);
				for (j = 0; j < nev; j++)
					if (strcmp(ev[j].rule, name) == 0)
						seen = true;
				mlq_arena_free(a);
			}
		}
		ok(seen, "rule %s has a positive case", name);
	}
}

static void
test_evidence(void)
{
	static const char body[] =
	    "On Mon, X wrote:\n> NACK\n\n   NACK.  There is no double free.\n"
	    "Why do you think so?\nReviewed-by: A <a@b>";
	struct mlq_arena *a = mlq_arena_new();
	struct mlq_evidence *ev;
	unsigned tags;
	size_t nev;
	enum mlq_status st;

	/* Not NUL-terminated: the last line ends without a newline. */
	st = mlq_classify_reply(body, sizeof(body) - 1, false, a, &tags, &ev,
	    &nev, NULL);
	is_int(st, MLQ_OK, "classify ok");
	is_int(tags, NACK | QUES | REV, "three tags");
	is_int(nev, 3, "one evidence per tag");
	if (nev == 3) {
		is_int(ev[0].tag, NACK, "evidence in tag order");
		is_str(ev[0].line, "NACK. There is no double free.",
		    "nack line, trimmed");
		is_str(ev[0].rule, "nack-verdict", "nack rule");
		is_int(ev[1].tag, REV, "reviewed second");
		is_str(ev[1].line, "Reviewed-by: A <a@b>", "trailer line");
		is_str(ev[2].line, "Why do you think so?", "question line");
	}
	/* A shorter length hides the trailer. */
	st = mlq_classify_reply(body, sizeof(body) - 8, false, a, &tags, &ev,
	    &nev, NULL);
	is_int(tags, NACK | QUES, "length is honoured");
	mlq_arena_free(a);
}

/* ---- the labeled fixture set ------------------------------------------- */

struct prf {
	unsigned tp, fp, fn;
};

/*
 * A fixture is "#expect: tag tag", optionally "#submitter", then the
 * reply's body.
 */
static void
run_fixture(const char *dir, const char *name, struct prf *prf)
{
	char path[4096], word[64];
	const char *body, *p, *e, *rule;
	char *text;
	size_t len, nev, i, k;
	unsigned want = 0, got, bit;
	bool sub = false, good = true;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path)) {
		ok(0, "%s: path too long", name);
		return;
	}
	if ((text = tmail_read(path, &len)) == NULL) {
		ok(0, "%s: cannot read", name);
		return;
	}
	body = text;
	while (*body == '#') {
		e = strchr(body, '\n');
		e = e ? e : body + strlen(body);
		if (strncmp(body, "#expect:", 8) == 0) {
			for (p = body + 8; p < e;) {
				while (p < e && *p == ' ')
					p++;
				for (k = 0; p < e && *p != ' ' &&
				     k + 1 < sizeof(word);)
					word[k++] = *p++;
				word[k] = '\0';
				if (k == 0)
					continue;
				bit = mlq_tag_from_name(word);
				if (bit == 0)
					good = false;
				want |= bit;
			}
		} else if (strncmp(body, "#submitter", 10) == 0)
			sub = true;
		body = *e ? e + 1 : e;
	}
	ok(good, "%s: header names known tags", name);
	got = classify(body, len - (size_t)(body - text), sub, &rule, &nev);
	is_int(got, want, "%s", name);
	for (i = 0; i < MLQ_TAG_COUNT; i++) {
		bit = 1u << i;
		if ((got & bit) && (want & bit))
			prf[i].tp++;
		else if (got & bit)
			prf[i].fp++;
		else if (want & bit)
			prf[i].fn++;
	}
	free(text);
}

static void
test_fixtures(void)
{
	char dir[4096];
	const char *src = getenv("top_srcdir");
	struct prf prf[MLQ_TAG_COUNT];
	char **names;
	size_t n = 0, i;

	memset(prf, 0, sizeof(prf));
	snprintf(dir, sizeof(dir), "%s/tests/fixtures/classify",
	    src ? src : ".");
	if ((names = tmail_list_dir(dir, ".txt", &n)) == NULL) {
		ok(0, "fixture directory %s", dir);
		return;
	}
	ok(n >= 40, "at least 40 labeled fixtures (%zu)", n);
	for (i = 0; i < n; i++) {
		run_fixture(dir, names[i], prf);
		free(names[i]);
	}
	free(names);
	diag("per-tag precision / recall over %zu labeled fixtures:", n);
	for (i = 0; i < MLQ_TAG_COUNT - 1; i++) {
		unsigned tp = prf[i].tp, fp = prf[i].fp, fn = prf[i].fn;

		diag(
		    "  %-18s tp %3u fp %3u fn %3u  precision %5.1f%%  recall %5.1f%%",
		    mlq_tag_name(1u << i), tp, fp, fn,
		    tp + fp ? 100.0 * tp / (tp + fp) : 100.0,
		    tp + fn ? 100.0 * tp / (tp + fn) : 100.0);
	}
}

int
main(void)
{
	test_names();
	test_cases();
	test_evidence();
	test_fixtures();
	return done_testing();
}
