package Demo::Thing;
use strict;
use List::Util qw(sum);
sub new { my $class = shift; }
sub _private { }
our $VERSION = '1.0';
1;
