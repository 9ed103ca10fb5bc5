// Runs one Halide-generated OpenCL kernel twice on the first OpenCL device (PoCL here): as
// Halide emitted it (kernel_guarded.cl: a barrier inside `if (_1991)`, a block-uniform guard
// that is true for every work-group of this launch) and with the guard replaced by `if (1)`.
// The two are the same computation, so any difference is the OpenCL implementation's.
// Same random inputs for both; prints how many output values differ (docs/import.md, "The
// update hosts' check"). Built and run by run.sh.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char *slurp(const char *p){FILE*f=fopen(p,"rb");fseek(f,0,SEEK_END);long n=ftell(f);rewind(f);char*b=malloc(n+1);fread(b,1,n,f);b[n]=0;fclose(f);return b;}
#define CK(x) do{cl_int e_=(x); if(e_){fprintf(stderr,"%s: %d\n",#x,e_);exit(1);}}while(0)
static float *run(const char *file, const float *bdy, size_t nbdy, const float *nlms0, size_t nn, const float *re, size_t nre){
  cl_platform_id pl; cl_device_id dev; cl_int e;
  CK(clGetPlatformIDs(1,&pl,NULL)); CK(clGetDeviceIDs(pl,CL_DEVICE_TYPE_ALL,1,&dev,NULL));
  cl_context ctx=clCreateContext(NULL,1,&dev,NULL,NULL,&e); CK(e);
  cl_command_queue q=clCreateCommandQueue(ctx,dev,0,&e); CK(e);
  const char *src=slurp(file);
  cl_program p=clCreateProgramWithSource(ctx,1,&src,NULL,&e); CK(e);
  if(clBuildProgram(p,1,&dev,"",NULL,NULL)){char log[20000];clGetProgramBuildInfo(p,dev,CL_PROGRAM_BUILD_LOG,sizeof log,log,NULL);fprintf(stderr,"%s\n",log);exit(1);}
  cl_kernel k=clCreateKernel(p,"_kernel_non_local_means_sum__1_s1_c_c_b1_block_id_z",&e); CK(e);
  cl_mem a=clCreateBuffer(ctx,CL_MEM_READ_ONLY|CL_MEM_COPY_HOST_PTR,nbdy*4,(void*)bdy,&e); CK(e);
  cl_mem b=clCreateBuffer(ctx,CL_MEM_READ_WRITE|CL_MEM_COPY_HOST_PTR,nn*4,(void*)nlms0,&e); CK(e);
  cl_mem c=clCreateBuffer(ctx,CL_MEM_READ_ONLY|CL_MEM_COPY_HOST_PTR,nre*4,(void*)re,&e); CK(e);
  int shared=64*2*9, bstride=48*66, ext0=64, ext1=48, min0=0, cmin=0, rstride=68*52, t890=0, t891=-4*48*66, t892=48, t893=4, t895=0;
  int ints[]={shared,bstride,ext0,ext1,min0,cmin,rstride,t890,t891,t892,t893,t895};
  CK(clSetKernelArg(k,0,sizeof a,&a)); CK(clSetKernelArg(k,1,sizeof b,&b)); CK(clSetKernelArg(k,2,sizeof c,&c));
  for(int i=0;i<12;i++) CK(clSetKernelArg(k,3+i,sizeof(int),&ints[i]));
  CK(clSetKernelArg(k,15,shared*4,NULL));
  size_t lsz[3]={32,3,3}, gsz[3]={1*32,24*3,1*3};
  CK(clEnqueueNDRangeKernel(q,k,3,NULL,gsz,lsz,0,NULL,NULL));
  float *out=malloc(nn*4); CK(clEnqueueReadBuffer(q,b,CL_TRUE,0,nn*4,out,0,NULL,NULL));
  return out;
}
int main(int argc, char **argv){
  if(argc!=3){fprintf(stderr,"usage: %s GUARDED.cl UNGUARDED.cl\n",argv[0]);return 2;}
  size_t nbdy=66*48*9*2, nn=64*48*4*2, nre=68*52*4*2;
  float *bdy=malloc(nbdy*4),*n0=malloc(nn*4),*re=malloc(nre*4);
  srand(1); for(size_t i=0;i<nbdy;i++) bdy[i]=rand()/(float)RAND_MAX; for(size_t i=0;i<nn;i++) n0[i]=rand()/(float)RAND_MAX; for(size_t i=0;i<nre;i++) re[i]=rand()/(float)RAND_MAX;
  float *A=run(argv[1],bdy,nbdy,n0,nn,re,nre), *B=run(argv[2],bdy,nbdy,n0,nn,re,nre), *A2=run(argv[1],bdy,nbdy,n0,nn,re,nre);
  const size_t used=64*48*4; // non_local_means_sum's 64 x 48 x 4 values; the rest is slack
  int dAB=0,dAA=0; for(size_t i=0;i<used;i++){ if(A[i]!=B[i]) dAB++; if(A[i]!=A2[i]) dAA++; }
  printf("values that differ, guarded vs unguarded: %d of %zu; guarded run twice: %d\n",dAB,used,dAA);
  return 0;
}
