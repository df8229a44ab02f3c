/* glibc-2.4.h: binds the glibc functions a cgo build of frcd calls to
 * their GLIBC_2.4 versions, ARM EABI's first, which every ARM EABI glibc
 * has (the roboRIO's NI Linux RT among them). Debian's armel glibc (2.36)
 * would otherwise bind them to GLIBC_2.32 and GLIBC_2.34 (the versions
 * of the libpthread and libdl merge), and the binary would not start on an
 * older glibc. make rio includes this in every C file (CGO_CFLAGS), links
 * libpthread.so.0 and libdl.so.2 by name (where older glibcs keep these
 * functions), and scripts/check-rio.sh fails the build when a symbol
 * newer than GLIBC_2.4 remains: add it here then. */
#ifndef __ASSEMBLER__
__asm__(".symver pthread_create,pthread_create@GLIBC_2.4");
__asm__(".symver pthread_key_create,pthread_key_create@GLIBC_2.4");
__asm__(".symver pthread_setspecific,pthread_setspecific@GLIBC_2.4");
__asm__(".symver pthread_sigmask,pthread_sigmask@GLIBC_2.4");
__asm__(".symver pthread_attr_getstacksize,pthread_attr_getstacksize@GLIBC_2.4");
__asm__(".symver pthread_attr_getstack,pthread_attr_getstack@GLIBC_2.4");
__asm__(".symver pthread_getattr_np,pthread_getattr_np@GLIBC_2.4");
__asm__(".symver dlopen,dlopen@GLIBC_2.4");
__asm__(".symver dlsym,dlsym@GLIBC_2.4");
__asm__(".symver dlerror,dlerror@GLIBC_2.4");
#endif
