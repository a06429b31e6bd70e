#!/usr/bin/perl
# dh --with rocm-audit: audit each binary package's staged tree once it is final (stripped,
# shlibs computed), before its control files and the .deb are made.
use strict;
use warnings;
use Debian::Debhelper::Dh_Lib;

insert_before('dh_installdeb', 'dh_rocm_audit');

1;
