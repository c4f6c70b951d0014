#!/usr/bin/perl
# The .editorconfig rules, checked over the files named on the command line (make format-check
# passes the tracked ones): LF endings, a final newline, no tabs in Java, no trailing whitespace
# (decision-log lines excepted). One process reads every file once; a shell loop starting four
# commands per file spent half a minute of CPU on it.
use strict;
use warnings;

my @bad;
for my $f (@ARGV) {
    next unless -f $f;
    open(my $h, '<:raw', $f) or die "format-check: $f: $!\n";
    my $c = do { local $/; <$h> } // '';
    close $h;
    push @bad, "$f: CRLF line endings" if $c =~ /\r/;
    push @bad, "$f: no final newline" if length($c) && substr($c, -1) ne "\n";
    push @bad, "$f: tab indentation" if $f =~ /\.java$/ && $c =~ /\t/;
    push @bad, "$f: trailing whitespace" if $f !~ /\.jsonl$/ && $c =~ / +$/m;
}
if (@bad) {
    print "$_\n" for @bad;
    print "format-check: fix the files above (see .editorconfig)\n";
    exit 1;
}
