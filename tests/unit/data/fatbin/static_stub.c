/* A stand-in for a program linked with libcudart_static (nvcc's default,
   ~1 MB): the symbol and the error-name string that runtime brings, and a
   real fatbin in .nv_fatbin.  See make.sh. */
__asm__(".section .nv_fatbin,\"a\"\n.balign 8\n.incbin \"sm90.fatbin\"\n.previous\n");
const char cuda_error_names[] = "cudaErrorCudartUnloading";
void __cudaRegisterFatBinary(void) {}
int main(void) { return cuda_error_names[0] == 0; }
