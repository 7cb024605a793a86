// Placeholder: the IDL model comes with the stub generator.
#ifndef GSRT_STUBGEN_IDL_MODEL_H_
#define GSRT_STUBGEN_IDL_MODEL_H_
#endif
