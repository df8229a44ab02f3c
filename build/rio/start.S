@ start.S: the entry point of bin/frcd-rio, in place of glibc's crt1.o.
@ Debian's crt1.o calls __libc_start_main@GLIBC_2.34, which older glibcs
@ (the roboRIO's) lack. A Go program needs none of what it does: the
@ dynamic loader has already run the libraries' initializers, and Go
@ exits through the exit_group system call, not through libc. So, as the
@ Go linker's own entry (_rt0_arm_linux) does when it links alone, this
@ passes argc and argv from the stack to Go's main in r0 and r1.
	.syntax unified
	.arm
	.text
	.global	_start
	.type	_start, %function
_start:
	mov	fp, #0
	mov	lr, #0
	ldr	r0, [sp]
	add	r1, sp, #4
	b	main
	.size	_start, .-_start
	.section .note.GNU-stack,"",%progbits
