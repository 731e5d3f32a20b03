/* opencl_api.h — the few OpenCL 1.2 types, constants and entry points the
   runtime uses, declared here (values from the Khronos headers, which are
   ABI) so that building clift needs no OpenCL headers; the functions are
   looked up in libOpenCL.so.1 at run time (opencl_api.c). */
#ifndef CLIFT_OPENCL_API_H
#define CLIFT_OPENCL_API_H
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef int64_t cl_long;
typedef uint64_t cl_ulong;
typedef cl_ulong cl_bitfield;
typedef struct _cl_platform_id *cl_platform_id;
typedef struct _cl_device_id *cl_device_id;
typedef struct _cl_context *cl_context;
typedef struct _cl_command_queue *cl_command_queue;
typedef struct _cl_mem *cl_mem;
typedef struct _cl_program *cl_program;
typedef struct _cl_kernel *cl_kernel;
typedef struct _cl_event *cl_event;

#define CL_SUCCESS 0
#define CL_DEVICE_TYPE_CPU (1u << 1)
#define CL_DEVICE_TYPE_GPU (1u << 2)
#define CL_DEVICE_TYPE 0x1000
#define CL_DEVICE_TYPE_ALL 0xFFFFFFFFu
#define CL_DEVICE_NAME 0x102B
#define CL_DEVICE_VENDOR 0x102C
#define CL_DRIVER_VERSION 0x102D
#define CL_DEVICE_MAX_COMPUTE_UNITS 0x1002
#define CL_DEVICE_SINGLE_FP_CONFIG 0x101B
#define CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT (1u << 7)
typedef cl_bitfield cl_device_fp_config;
#define CL_DEVICE_MAX_WORK_GROUP_SIZE 0x1004
#define CL_PLATFORM_NAME 0x0902
#define CL_MEM_READ_WRITE (1u << 0)
#define CL_MEM_COPY_HOST_PTR (1u << 5)
#define CL_PROGRAM_BUILD_LOG 0x1183
#define CL_KERNEL_WORK_GROUP_SIZE 0x11B0
#define CL_KERNEL_LOCAL_MEM_SIZE 0x11B2
#define CL_DEVICE_LOCAL_MEM_SIZE 0x1023
#define CL_QUEUE_PROFILING_ENABLE (1u << 1)
#define CL_PROFILING_COMMAND_START 0x1282
#define CL_PROFILING_COMMAND_END 0x1283

/* One function pointer per entry point, filled by opencl_api_load. */
typedef struct OclApi {
  cl_int (*GetPlatformIDs)(cl_uint, cl_platform_id *, cl_uint *);
  cl_int (*GetPlatformInfo)(cl_platform_id, cl_uint, size_t, void *, size_t *);
  cl_int (*GetDeviceIDs)(cl_platform_id, cl_bitfield, cl_uint, cl_device_id *, cl_uint *);
  cl_int (*GetDeviceInfo)(cl_device_id, cl_uint, size_t, void *, size_t *);
  cl_context (*CreateContext)(const intptr_t *, cl_uint, const cl_device_id *, void *, void *, cl_int *);
  cl_command_queue (*CreateCommandQueue)(cl_context, cl_device_id, cl_bitfield, cl_int *);
  cl_program (*CreateProgramWithSource)(cl_context, cl_uint, const char **, const size_t *, cl_int *);
  cl_int (*BuildProgram)(cl_program, cl_uint, const cl_device_id *, const char *, void *, void *);
  cl_int (*GetProgramBuildInfo)(cl_program, cl_device_id, cl_uint, size_t, void *, size_t *);
  cl_kernel (*CreateKernel)(cl_program, const char *, cl_int *);
  cl_int (*GetKernelWorkGroupInfo)(cl_kernel, cl_device_id, cl_uint, size_t, void *, size_t *);
  cl_int (*SetKernelArg)(cl_kernel, cl_uint, size_t, const void *);
  cl_mem (*CreateBuffer)(cl_context, cl_bitfield, size_t, void *, cl_int *);
  cl_int (*EnqueueNDRangeKernel)(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
                                 const size_t *, cl_uint, const cl_event *, cl_event *);
  cl_int (*EnqueueReadBuffer)(cl_command_queue, cl_mem, cl_uint, size_t, size_t, void *, cl_uint,
                              const cl_event *, cl_event *);
  cl_int (*EnqueueWriteBuffer)(cl_command_queue, cl_mem, cl_uint, size_t, size_t, const void *, cl_uint,
                               const cl_event *, cl_event *);
  cl_int (*Finish)(cl_command_queue);
  cl_int (*ReleaseMemObject)(cl_mem);
  cl_int (*ReleaseKernel)(cl_kernel);
  cl_int (*ReleaseProgram)(cl_program);
  cl_int (*GetEventProfilingInfo)(cl_event, cl_uint, size_t, void *, size_t *);
  cl_int (*ReleaseEvent)(cl_event);
} OclApi;

/* dlopen libOpenCL.so.1 and look every entry point up (once). NULL + diag. */
const OclApi *opencl_api_load(void);
/* "CL_INVALID_KERNEL_ARGS (-52)" for an error code. */
const char *opencl_error_name(cl_int err);

#endif
