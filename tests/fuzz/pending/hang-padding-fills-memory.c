/* Padding to a width given by the block ('x'.center(2**63-1), also
   ljust, rjust, zfill, expandtabs, format(1, '>1000000000') and
   '{:>1000000000}'.format(1)) is not refused up front as 'a'*2**62 is:
   it fills 256 MiB, then raises MemoryError: 1.3 to 2.4 s in the release
   build, over 10 s under ASan.  list(range(10**9)), tuple(...) and
   set(range(10**7)) alike: 360 MiB and 1.1 to 1.4 s where the length is
   known before the first item.  Found by gen.c. */
/*[python input]
x = 'x'.center(2**63-1)
[python start generated code]*/
