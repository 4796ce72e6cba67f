# output: -o into a folder that does not exist
asm -o other/no/such/folder/k.pxo other/gpu_kernel.ptx
