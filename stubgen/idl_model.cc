#include "stubgen/idl_model.h"
