/*
 * MAINTAINERS parsing and the most-specific-section lookup, on a small
 * file that exercises each kind of pattern as get_maintainer.pl reads it.
 */
#include "maintainers.h"
#include "tap.h"

static const char sample[] =
	"List of maintainers\n"
	"===================\n"
	"\n"
	"Descriptions of section entries and preferred order\n"
	"\tM: *Mail* patches to: FullName <address@domain>\n"
	"\tF: *Files* and directories wildcard patterns.\n"
	"\n"
	"Maintainers List\n"
	"----------------\n"
	"\n"
	"NETWORKING DRIVERS\n"
	"M:\tJane <j@example.org>\n"
	"F:\tdrivers/net/\n"
	"X:\tdrivers/net/wireless/\n"
	"\n"
	"NETWORKING [WIRELESS]\n"
	"F:\tdrivers/net/wireless/\n"
	"\n"
	"INTEL ETHERNET\n"
	"F:\tdrivers/net/ethernet/intel/\n"
	"F:\tinclude/linux/avf/virtchnl.h\n"
	"\n"
	"NET HEADERS ONE LEVEL\n"
	"F:\tdrivers/net/*.h\n"
	"\n"
	"ANY NET DIR\n"
	"F:\t*/net/*\n"
	"\n"
	"TEGRA\n"
	"N:\t[^a-z]tegra\n"
	"\n"
	"MM\n"
	"F:\tmm\n"
	"F:\tinclude/linux/mm.h\n"
	"X:\tmm/kasan/\n"
	"\n"
	"KASAN\n"
	"F:\tmm/kasan/\n"
	"F:\tinclude/linux/kasan*.h\n"
	"\n"
	"BROKEN REGEX\n"
	"N:\t(unclosed\n"
	"\n"
	"EDAC PND2\n"
	"F:\tdrivers/edac/pnd2_edac.[ch]\n"
	"\n"
	"EDAC CORE\n"
	"F:\tdrivers/edac/\n"
	"# a comment line is not a title\n"
	"\n"
	"THE REST\n"
	"M:\tLinus <l@example.org>\n"
	"F:\t*\n"
	"F:\t*/\n";

static const char *section_of(const struct maintainers *m, const char *path)
{
	ssize_t i = maintainers_match(m, path, NULL);

	return i < 0 ? "(none)" : m->sections[i].name;
}

static void test_patterns(void)
{
	ok(maintainers_pattern_match("drivers/net/", "drivers/net/a/b.c"),
	   "trailing slash matches below the directory");
	ok(!maintainers_pattern_match("drivers/net/", "drivers/netx/b.c"),
	   "trailing slash needs the whole component");
	ok(maintainers_pattern_match("drivers/net/*.c", "drivers/net/x.c"),
	   "glob in one directory");
	ok(!maintainers_pattern_match("drivers/net/*.c", "drivers/net/a/x.c"),
	   "glob without trailing slash does not descend");
	ok(maintainers_pattern_match("drivers/net/?.c", "drivers/net/x.c"),
	   "question mark is one character");
	ok(!maintainers_pattern_match("drivers/net/?.c", "drivers/net/xy.c"),
	   "question mark is not two");
	ok(maintainers_pattern_match("mm", "mm/slab.c"),
	   "a plain directory name matches below it");
	ok(maintainers_pattern_match("mm", "mm"), "and the name itself");
	ok(!maintainers_pattern_match("mm", "mmx/slab.c"),
	   "but not a longer name");
	ok(maintainers_pattern_match("*/net/*", "drivers/net/x.c"),
	   "leading glob");
	ok(maintainers_pattern_match("drivers/*/foo/", "drivers/a/b/foo/x.c"),
	   "'*' crosses '/' under a trailing slash, as get_maintainer.pl's regex does");
	ok(maintainers_pattern_match("drivers/edac/pnd2_edac.[ch]",
				     "drivers/edac/pnd2_edac.h"), "character class");
	ok(!maintainers_pattern_match("drivers/edac/pnd2_edac.[ch]",
				      "drivers/edac/pnd2_edac.o"), "character class excludes");
	ok(maintainers_pattern_match("sound/da[7-9]*.c", "sound/da9055.c"),
	   "character range");
	ok(!maintainers_pattern_match("sound/da[^7-9]*.c", "sound/da9055.c"),
	   "negated character range");
	ok(maintainers_pattern_match("x/a[b", "x/a[b"), "an unclosed '[' is literal");
	is(maintainers_pattern_depth("drivers/net/"), 2, "depth of a dir pattern");
	is(maintainers_pattern_depth("drivers/net/x.c"), 3, "depth of a file pattern");
	is(maintainers_pattern_depth("mm"), 1, "depth of a bare name");
	is(maintainers_pattern_depth("*"), -1, "depth of '*'");
	is(maintainers_pattern_depth("*/"), -1, "depth of '*/'");
}

static void test_match(void)
{
	struct maintainers m = MAINTAINERS_INIT;
	int depth;

	is(maintainers_parse(&m, sample, sizeof(sample) - 1, "sample", 0), 0,
	   "sample parses");
	is(m.nr, 12, "twelve sections (preamble entries belong to none)");
	is_str(m.sections[0].name, "NETWORKING DRIVERS", "first section title");
	is(m.sections[0].line, 11, "title line number");
	is(m.sections[0].nr_files, 1, "F: counted");
	is(m.sections[0].nr_excludes, 1, "X: counted");
	is(m.nr_bad_regexes, 1, "a broken N: regex is counted, not fatal");

	is_str(section_of(&m, "drivers/net/loopback.c"), "NETWORKING DRIVERS",
	       "a pattern starting with '*' has depth -1 and loses");
	is_str(section_of(&m, "fs/net/x.c"), "ANY NET DIR",
	       "but beats THE REST on the pattern's length");
	is_str(section_of(&m, "drivers/net/phy/phy.c"), "NETWORKING DRIVERS",
	       "directory pattern below its top");
	is_str(section_of(&m, "drivers/net/ethernet/intel/e1000/e1000_main.c"),
	       "INTEL ETHERNET", "the most specific directory wins");
	is_str(section_of(&m, "drivers/net/wireless/ath/ath9k/main.c"),
	       "NETWORKING [WIRELESS]", "X: hands the path to another section");
	is_str(section_of(&m, "drivers/net/netdevsim.h"), "NET HEADERS ONE LEVEL",
	       "tie on depth goes to the longer pattern");
	is_str(section_of(&m, "include/linux/avf/virtchnl.h"), "INTEL ETHERNET",
	       "single file pattern");
	is_str(section_of(&m, "mm/slub.c"), "MM", "bare directory name");
	is_str(section_of(&m, "mm/kasan/report.c"), "KASAN",
	       "excluded subdirectory goes to its own section");
	is_str(section_of(&m, "include/linux/kasan-enabled.h"), "KASAN",
	       "glob in a file name");
	is_str(section_of(&m, "arch/arm/mach-tegra/pm.c"), "TEGRA",
	       "N: regex beats THE REST");
	is(maintainers_match(&m, "arch/arm/mach-tegra/pm.c", &depth) >= 0, 1,
	   "regex match found");
	is(depth, 0, "an N: match has depth 0");
	is_str(section_of(&m, "drivers/integrator/x.c"), "THE REST",
	       "regex character class is honoured");
	is_str(section_of(&m, "Makefile"), "THE REST", "top-level file");
	is_str(section_of(&m, "drivers/edac/pnd2_edac.c"), "EDAC PND2",
	       "a class pattern is as deep as a file name");
	is_str(section_of(&m, "kernel/sched/core.c"), "THE REST", "fallback");
	maintainers_release(&m);

	is(maintainers_parse(&m, sample, sizeof(sample) - 1, "sample",
			     MAINTAINERS_NO_REGEX), 0, "parses without regexes");
	is_str(section_of(&m, "arch/arm/mach-tegra/pm.c"), "THE REST",
	       "N: ignored when asked");
	maintainers_release(&m);

	is(maintainers_parse(&m, "just text\n", 10, "empty", 0), WW_EINPUT,
	   "no section is an input error");
	ok(strstr(error_last(), "'empty'") != NULL, "the error names the input");
	maintainers_release(&m);
}

int main(void)
{
	test_patterns();
	test_match();
	return done_testing();
}
