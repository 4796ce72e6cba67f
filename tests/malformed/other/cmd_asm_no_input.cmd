# command line: asm without an input
asm --check
