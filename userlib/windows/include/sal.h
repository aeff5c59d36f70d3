/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The source annotation language (SAL) for Windows sources: Microsoft's
 * static analyser reads the annotations; compilers ignore them, and so do
 * nttrace's, where each is defined away. SAL 2 (_In_, ...) and the older
 * SAL 1 (__in, ...) names the ETW samples and headers use.
 */
#ifndef NTTRACE_WINDOWS_SAL_H
#define NTTRACE_WINDOWS_SAL_H

#define _In_
#define _In_opt_
#define _In_z_
#define _In_opt_z_
#define _In_reads_(n)
#define _In_reads_opt_(n)
#define _In_reads_bytes_(n)
#define _In_reads_bytes_opt_(n)
#define _In_reads_z_(n)
#define _In_range_(lo, hi)
#define _In_count_(n)
#define _In_bytecount_(n)
#define _In_opt_count_(n)
#define _In_opt_bytecount_(n)
#define _Out_
#define _Out_cap_(n)
#define _Out_bytecap_(n)
#define _Out_opt_cap_(n)
#define _Out_opt_bytecap_(n)
#define _Out_z_cap_(n)
#define _Out_cap_post_count_(n, c)
#define _Out_bytecap_post_bytecount_(n, c)
#define _Inout_cap_(n)
#define _Inout_bytecap_(n)
#define _Deref_out_opt_
#define _Deref_post_z_
#define _Out_opt_
#define _Out_writes_(n)
#define _Out_writes_opt_(n)
#define _Out_writes_bytes_(n)
#define _Out_writes_bytes_opt_(n)
#define _Out_writes_z_(n)
#define _Out_writes_to_(n, c)
#define _Out_writes_bytes_to_(n, c)
#define _Out_writes_bytes_to_opt_(n, c)
#define _Out_writes_bytes_all_(n)
#define _Out_range_(lo, hi)
#define _Inout_
#define _Inout_opt_
#define _Inout_z_
#define _Inout_updates_(n)
#define _Inout_updates_opt_(n)
#define _Inout_updates_bytes_(n)
#define _Inout_updates_bytes_opt_(n)
#define _Outptr_
#define _Outptr_opt_
#define _Outptr_result_maybenull_
#define _Outptr_result_buffer_(n)
#define _Outptr_result_bytebuffer_(n)
#define _Deref_out_
#define _Ret_
#define _Ret_maybenull_
#define _Ret_notnull_
#define _Ret_z_
#define _Success_(e)
#define _Check_return_
#define _Must_inspect_result_
#define _Null_terminated_
#define _NullNull_terminated_
#define _Printf_format_string_
#define _Field_size_(n)
#define _Field_size_opt_(n)
#define _Field_size_bytes_(n)
#define _Field_size_bytes_opt_(n)
#define _Field_size_part_(n, c)
#define _Field_range_(lo, hi)
#define _Field_z_
#define _Reserved_
#define _Pre_
#define _Post_
#define _Pre_notnull_
#define _Post_z_
#define _Frees_ptr_
#define _Frees_ptr_opt_
#define _Use_decl_annotations_
#define _When_(e, a)
#define _At_(e, a)
#define _Analysis_assume_(e)
#define _Analysis_mode_(m)
#define _Always_(a)
#define _Notnull_
#define _Maybenull_
#define _Acquires_lock_(l)
#define _Releases_lock_(l)
#define _Requires_lock_held_(l)
#define _Guarded_by_(l)
#define _IRQL_requires_max_(l)
#define _Function_class_(n)
/*
 * __in and __out only in C: libstdc++'s headers name parameters so (as
 * mingw-w64's sal.h notes too), and a C++ program includes them after.
 */
#ifndef __cplusplus
#define __in
#define __out
#endif
#define __in_opt
#define __in_z
#define __in_ecount(n)
#define __in_ecount_opt(n)
#define __in_bcount(n)
#define __in_bcount_opt(n)
#define __out_opt
#define __out_ecount(n)
#define __out_ecount_opt(n)
#define __out_bcount(n)
#define __out_bcount_opt(n)
#define __out_ecount_part(n, c)
#define __out_bcount_part(n, c)
#define __inout
#define __inout_opt
#define __inout_ecount(n)
#define __inout_bcount(n)
#define __deref_out
#define __deref_out_opt
#define __deref_opt_out
#define __field_ecount(n)
#define __field_bcount(n)
#define __reserved
#define __callback
#define __checkReturn
#define __success(e)
#define __nullterminated
#define __drv_maxIRQL(l)

#endif /* NTTRACE_WINDOWS_SAL_H */
