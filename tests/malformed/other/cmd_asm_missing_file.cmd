# input: a PTX file that does not exist
asm --check other/nothere.ptx
