#!/usr/bin/perl -w
# usage: v2-import.pl NAME FILE...
# Add mails to the v2 inbox NAME (from $PI_CONFIG) with public-inbox's own
# writer, as public-inbox-mda does, but with a tiny epoch size until the
# next epoch (git/N+1.git) has begun, then the usual 1 GiB: the first mail
# lands in the current epoch, the second and later ones in a new epoch.
# For the tests only: it is how a real archive reaches its next epoch,
# without writing a gigabyte.
use strict;
use PublicInbox::Config;
use PublicInbox::Eml;
use PublicInbox::V2Writable;

my ($name, @files) = @ARGV;
my $cfg = PublicInbox::Config->new;
my $ibx = $cfg->lookup_name($name) or die "no inbox $name\n";
my $v2w = PublicInbox::V2Writable->new($ibx);
my $max;
$ibx->git_dir_latest(\$max);
$v2w->{rotate_bytes} = 1;
for my $f (@files) {
	open my $fh, '<', $f or die "$f: $!\n";
	my $raw = do { local $/; <$fh> };
	close $fh;
	$v2w->add(PublicInbox::Eml->new(\$raw)) or warn "$f: not added (duplicate?)\n";
	$v2w->{rotate_bytes} = 1 << 30 if ($v2w->{epoch_max} // 0) > $max;
}
$v2w->done;
