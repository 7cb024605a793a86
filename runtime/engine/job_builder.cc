#include "runtime/engine/job_builder.h"

#include <cstdlib>

#include "runtime/base/array_codec.h"
#include "runtime/base/result_values.h"
#include "runtime/base/scalar_codec.h"

namespace gs {

Status CheckCallValues(const gs_operation& op, const gs_arg* args) {
  for (int i = 0; i < op.num_params; ++i) {
    const gs_param_desc& p = op.params[i];
    if (!IsArrayParam(p)) continue;
    StatusOr<size_t> n = ArrayLength(op, i, args);
    if (!n.ok()) return n.status();
    if (*n > 0 && args[i].ptr == nullptr) {
      return Status::InvalidArgument(
          "operation '" + std::string(op.name) + "': array '" + p.name +
          "' is NULL; pass an array of " + std::to_string(*n) + " elements");
    }
    if (p.dir == GS_DIR_OUT) continue;
    size_t bytes = EncodeArray(p.type, args[i].ptr, *n).size();
    if (bytes > kMaxEncodedArrayBytes) {
      return Status::InvalidArgument(
          "operation '" + std::string(op.name) + "': array '" + p.name +
          "' takes " + std::to_string(bytes) + " bytes as text, more than " +
          std::to_string(kMaxEncodedArrayBytes) +
          " a job argument may hold; pass big data in a File");
    }
  }
  return Status::Ok();
}

void EncodeScalars(const gs_operation& op, const gs_arg* args,
                   std::string* blob) {
  for (int i = 0; i < op.num_params; ++i) {
    const gs_param_desc& p = op.params[i];
    if (p.type == GS_TYPE_FILE) continue;
    if (IsArrayParam(p)) {
      StatusOr<size_t> n = ArrayLength(op, i, args);  // CheckCallValues'd
      if (p.dir != GS_DIR_OUT && n.ok()) {
        blob->append(EncodeArray(p.type, args[i].ptr, *n));
      }
    } else if (p.dir == GS_DIR_IN) {
      if (p.type == GS_TYPE_STRING) {
        blob->append(args[i].str ? args[i].str : "");
      } else {
        blob->append(EncodeArg(p.type, args[i], false));
      }
    } else if (p.dir == GS_DIR_INOUT) {
      blob->append(EncodeValue(p.type, args[i].ptr));
    }
    blob->push_back('\0');
  }
}

JobSpec BuildJobSpec(const TaskGraph& graph, TaskId task,
                     const OperationInfo& op,
                     const std::function<std::string(VersionId)>& version_path,
                     std::string worker) {
  JobSpec spec;
  spec.task = task;
  spec.operation = op.name;
  spec.worker = std::move(worker);
  const gs_operation& desc = *op.desc;
  spec.params.resize(desc.num_params);
  const FileAccess* files = graph.accesses(task);
  std::string_view scalars = graph.scalars(task);
  size_t pos = 0;
  int file_index = 0;
  for (int i = 0; i < desc.num_params; ++i) {
    const gs_param_desc& p = desc.params[i];
    JobParam& jp = spec.params[i];
    if (p.type == GS_TYPE_FILE) {
      const FileAccess& a = files[file_index++];
      if (a.in != kNoVersion) jp.source = version_path(a.in);
      if (a.out != kNoVersion) jp.dest = version_path(a.out);
      jp.kind = p.dir == GS_DIR_IN    ? JobParam::Kind::kFileIn
                : p.dir == GS_DIR_OUT ? JobParam::Kind::kFileOut
                                      : JobParam::Kind::kFileInOut;
      continue;
    }
    size_t end = scalars.find('\0', pos);
    jp.value = std::string(scalars.substr(pos, end - pos));
    pos = end + 1;
    jp.kind = p.dir == GS_DIR_IN    ? JobParam::Kind::kScalar
              : p.dir == GS_DIR_OUT ? JobParam::Kind::kOutScalar
                                    : JobParam::Kind::kInOutScalar;
  }
  return spec;
}

namespace {

// `long[3] f(...)`: the caller's pointer variable at `return_slot` gets a
// malloc'd array of the elements on `line`, which the caller frees.
Status DecodeReturnedArray(const gs_operation& op, std::string_view line,
                           void* return_slot) {
  const size_t n = static_cast<size_t>(op.return_array_length);
  void* array = std::malloc(n * ScalarSize(op.return_type));
  if (array == nullptr) {
    return Status::Internal(std::string("out of memory for the array ") +
                            op.name + " returned");
  }
  Status s = DecodeArray(op.return_type, line, n, array);
  if (!s.ok()) {
    std::free(array);
    return Status::Internal(std::string("bad array returned by ") + op.name +
                            ": " + s.message());
  }
  *static_cast<void**>(return_slot) = array;
  return Status::Ok();
}

}  // namespace

Status DecodeResults(const gs_operation& op, std::string_view results,
                     const gs_arg* args, void* return_slot) {
  auto next_line = [&](std::string_view* line) {
    if (results.empty()) return false;
    size_t nl = results.find('\n');
    *line = results.substr(0, nl);
    results = nl == std::string_view::npos ? std::string_view()
                                           : results.substr(nl + 1);
    return true;
  };
  std::string_view line;
  if (op.return_type != GS_TYPE_VOID) {
    if (!next_line(&line)) {
      return Status::Internal(
          std::string("worker reported no return value for ") + op.name);
    }
    if (op.return_array_length > 0) {
      if (return_slot) {
        Status s = DecodeReturnedArray(op, line, return_slot);
        if (!s.ok()) return s;
      }
    } else if (return_slot &&
               !DecodeResultLine(op.return_type, line, return_slot)) {
      return Status::Internal(std::string("bad return value '") +
                              std::string(line) + "' from " + op.name);
    }
  }
  for (int i = 0; i < op.num_params; ++i) {
    const gs_param_desc& p = op.params[i];
    if (!IsResultParam(p)) continue;
    if (!next_line(&line)) {
      return Status::Internal(std::string("worker reported no value for '") +
                              p.name + "' of " + op.name);
    }
    if (IsArrayParam(p)) {
      StatusOr<size_t> n = ArrayLength(op, i, args);
      if (!n.ok()) return n.status();
      if (args[i].ptr == nullptr) continue;
      Status s = DecodeArray(p.type, line, *n, args[i].ptr);
      if (!s.ok()) {
        return Status::Internal(std::string("bad array '") + p.name + "' of " +
                                op.name + ": " + s.message());
      }
      continue;
    }
    if (args[i].ptr && !DecodeResultLine(p.type, line, args[i].ptr)) {
      return Status::Internal(std::string("bad value '") + std::string(line) +
                              "' for '" + p.name + "' of " + op.name);
    }
  }
  return Status::Ok();
}

}  // namespace gs
