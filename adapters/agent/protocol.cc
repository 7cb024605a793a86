#include "adapters/agent/protocol.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>
#include <utility>

namespace gs::agent {

namespace {

// Appends fixed-width little-endian values and length-prefixed strings.
class Writer {
 public:
  explicit Writer(std::string* out) : out_(out) {}
  void U8(uint8_t v) { out_->push_back(static_cast<char>(v)); }
  void U16(uint16_t v) { Fixed(v, 2); }
  void U32(uint32_t v) { Fixed(v, 4); }
  void U64(uint64_t v) { Fixed(v, 8); }
  void I32(int32_t v) { U32(static_cast<uint32_t>(v)); }
  void I64(int64_t v) { U64(static_cast<uint64_t>(v)); }
  void F64(double v) { U64(std::bit_cast<uint64_t>(v)); }
  void Str(std::string_view s) {
    U32(static_cast<uint32_t>(s.size()));
    out_->append(s);
  }

 private:
  void Fixed(uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i)
      out_->push_back(static_cast<char>(v >> (8 * i)));
  }
  std::string* out_;
};

// Reads what Writer wrote; the first short read makes ok() false and every
// later read returns zero values, so decoders check once at the end.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  uint8_t U8() { return static_cast<uint8_t>(Fixed(1)); }
  uint16_t U16() { return static_cast<uint16_t>(Fixed(2)); }
  uint32_t U32() { return static_cast<uint32_t>(Fixed(4)); }
  uint64_t U64() { return Fixed(8); }
  int32_t I32() { return static_cast<int32_t>(U32()); }
  int64_t I64() { return static_cast<int64_t>(U64()); }
  double F64() { return std::bit_cast<double>(U64()); }
  std::string Str() {
    const uint32_t n = U32();
    if (!ok_ || n > in_.size() - pos_) return Short();
    std::string s(in_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  void SkipRest() { pos_ = in_.size(); }
  bool ok() const { return ok_; }
  bool at_end() const { return pos_ == in_.size(); }

 private:
  uint64_t Fixed(int bytes) {
    if (!ok_ || in_.size() - pos_ < static_cast<size_t>(bytes)) {
      Short();
      return 0;
    }
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) {
      v = (v << 8) | static_cast<unsigned char>(in_[pos_ + i]);
    }
    pos_ += bytes;
    return v;
  }
  std::string Short() {
    ok_ = false;
    pos_ = in_.size();
    return {};
  }
  std::string_view in_;
  size_t pos_ = 0;
  bool ok_ = true;
};

constexpr uint8_t kMaxParamKind =
    static_cast<uint8_t>(JobParam::Kind::kFileInOut);
constexpr uint8_t kMaxStatusCode =
    static_cast<uint8_t>(Status::Code::kInternal);

// Outcome tags inside JOB_FINISHED, in JobOutcome's variant order.
enum OutcomeTag : uint8_t { kExited = 0, kHostFailed, kTimedOut, kCancelled };

void Put(Writer& w, const Hello& m) {
  w.Str(m.magic);
  w.U16(m.major);
  w.U16(m.minor);
  w.Str(m.software);
  w.Str(m.host_name);
  w.Str(m.work_dir);
  w.U32(m.slots);
  w.U32(m.cores);
  w.U64(m.memory_total);
  w.U64(m.memory_available);
  w.F64(m.load1);
  w.U32(m.pid);
  w.U32(static_cast<uint32_t>(m.held_jobs.size()));
  for (uint64_t id : m.held_jobs) w.U64(id);
  // Protocol 2.6: only when it has some, so that an agent without GPUs
  // says what every 2.x master reads.
  if (m.gpus > 0) w.U32(m.gpus);
}
void Put(Writer& w, const RunJob& m) {
  const JobSpec& s = m.spec;
  w.U64(s.id);
  w.U32(s.task);
  w.Str(s.operation);
  w.U32(static_cast<uint32_t>(s.params.size()));
  for (const JobParam& p : s.params) {
    w.U8(static_cast<uint8_t>(p.kind));
    w.Str(p.value);
    w.Str(p.source);
    w.Str(p.dest);
  }
  w.Str(s.worker);
  w.F64(s.timeout);
  w.U32(static_cast<uint32_t>(std::max(1, s.cores)));
  w.F64(s.memory_gb);
  // Protocol 2.5: only when there is one, so that a job without is what
  // every 2.x agent reads.
  if (!s.env.empty() || s.gpus > 0) {
    w.U32(static_cast<uint32_t>(s.env.size()));
    for (const std::string& e : s.env) w.Str(e);
  }
  if (s.gpus > 0) w.U32(static_cast<uint32_t>(s.gpus));  // protocol 2.6
}
void Put(Writer& w, const Cancel& m) { w.U64(m.job); }
void Put(Writer& w, const Heartbeat& m) { w.U64(m.seq); }
void Put(Writer& w, const HeartbeatAck& m) {
  w.U64(m.seq);
  w.U32(m.running);
  w.F64(m.load1);
}
void Put(Writer& w, const JobFinished& m) {
  const JobReport& r = m.report;
  w.U64(r.id);
  w.F64(r.submitted);
  w.F64(r.started);
  w.F64(r.ended);
  w.U8(static_cast<uint8_t>(r.outcome.index()));
  if (const Exited* e = std::get_if<Exited>(&r.outcome)) {
    w.I32(e->code);
    w.Str(e->results);
    w.F64(e->usage.user_cpu);
    w.F64(e->usage.system_cpu);
    w.I64(e->usage.max_rss_kb);
    w.U64(e->bytes_in);
    w.U64(e->bytes_out);
    w.Str(e->error);
    w.Str(e->log_dir);
  } else if (const HostFailed* f = std::get_if<HostFailed>(&r.outcome)) {
    w.Str(f->reason);
  } else if (const TimedOut* t = std::get_if<TimedOut>(&r.outcome)) {
    w.F64(t->limit);
    w.Str(t->log_dir);
  }
}
void Put(Writer& w, const PutBegin& m) {
  w.U64(m.id);
  w.Str(m.path);
  w.U64(m.size);
}
void Put(Writer& w, const PutChunk& m) {
  w.U64(m.id);
  w.Str(m.data);
}
void Put(Writer& w, const PutEnd& m) {
  w.U64(m.id);
  w.U64(m.size);
  w.U64(m.hash);
}
void Put(Writer& w, const PutDone& m) { w.U64(m.id); }
void Put(Writer& w, const GetRequest& m) {
  w.U64(m.id);
  w.Str(m.path);
  if (m.tail != 0) w.U64(m.tail);
}
void Put(Writer& w, const GetChunk& m) {
  w.U64(m.id);
  w.Str(m.data);
}
void Put(Writer& w, const GetEnd& m) {
  w.U64(m.id);
  w.U64(m.size);
  w.U64(m.hash);
}
void Put(Writer& w, const Remove& m) { w.Str(m.path); }
void Put(Writer& w, const Error& m) {
  w.U64(m.request);
  w.U8(static_cast<uint8_t>(m.code));
  w.Str(m.message);
}
void Put(Writer&, const Shutdown&) {}
void Put(Writer& w, const Sweep& m) {
  w.Str(m.owner);
  w.U32(static_cast<uint32_t>(m.keep.size()));
  for (const std::string& name : m.keep) w.Str(name);
}

// Decoders return false for values no encoder writes.
bool Get(Reader& r, Hello& m) {
  m.magic = r.Str();
  m.major = r.U16();
  m.minor = r.U16();
  // Only the first four fields are the same in every version; another
  // version's HELLO is read that far, so the peer can say what mismatched.
  if (r.ok() && m.magic != kMagic) {
    r.SkipRest();
    return true;
  }
  m.software = r.Str();
  if (r.ok() && m.major != kProtocolMajor) {
    r.SkipRest();
    return true;
  }
  m.host_name = r.Str();
  m.work_dir = r.Str();
  m.slots = r.U32();
  m.cores = r.U32();
  m.memory_total = r.U64();
  m.memory_available = r.U64();
  m.load1 = r.F64();
  m.pid = r.U32();
  // Protocol 2.2: the jobs held from an earlier master.
  if (r.ok() && !r.at_end()) {
    const uint32_t n = r.U32();
    for (uint32_t i = 0; i < n && r.ok(); ++i) m.held_jobs.push_back(r.U64());
  }
  // Protocol 2.6: the GPUs it hands out.
  if (r.ok() && !r.at_end()) m.gpus = std::min<uint32_t>(r.U32(), 1024);
  return true;
}
bool Get(Reader& r, RunJob& m) {
  JobSpec& s = m.spec;
  s.id = r.U64();
  s.task = r.U32();
  s.operation = r.Str();
  const uint32_t n = r.U32();
  for (uint32_t i = 0; i < n && r.ok(); ++i) {
    JobParam p;
    const uint8_t kind = r.U8();
    if (kind > kMaxParamKind) return false;
    p.kind = static_cast<JobParam::Kind>(kind);
    p.value = r.Str();
    p.source = r.Str();
    p.dest = r.Str();
    s.params.push_back(std::move(p));
  }
  s.worker = r.Str();
  s.timeout = r.F64();
  // Protocol 1.1: what the job holds (1.0 masters send neither).
  if (!r.at_end()) {
    s.cores = static_cast<int>(std::min<uint32_t>(r.U32(), 1u << 20));
    s.memory_gb = r.F64();
  }
  if (!r.at_end()) {
    const uint32_t n = r.U32();
    for (uint32_t i = 0; i < n && r.ok(); ++i) {
      std::string e = r.Str();
      // NAME=value, as the engine writes them (a worker's environment).
      if (e.find('=') == std::string::npos || e.front() == '=') return false;
      s.env.push_back(std::move(e));
    }
  }
  if (r.ok() && !r.at_end()) {  // protocol 2.6
    s.gpus = static_cast<int>(std::min<uint32_t>(r.U32(), 1024));
  }
  return true;
}
bool Get(Reader& r, Cancel& m) {
  m.job = r.U64();
  return true;
}
bool Get(Reader& r, Heartbeat& m) {
  m.seq = r.U64();
  return true;
}
bool Get(Reader& r, HeartbeatAck& m) {
  m.seq = r.U64();
  m.running = r.U32();
  m.load1 = r.F64();
  return true;
}
bool Get(Reader& r, JobFinished& m) {
  JobReport& rep = m.report;
  rep.id = r.U64();
  rep.submitted = r.F64();
  rep.started = r.F64();
  rep.ended = r.F64();
  switch (r.U8()) {
    case kExited: {
      Exited e;
      e.code = r.I32();
      e.results = r.Str();
      e.usage.user_cpu = r.F64();
      e.usage.system_cpu = r.F64();
      e.usage.max_rss_kb = r.I64();
      e.bytes_in = r.U64();
      e.bytes_out = r.U64();
      e.error = r.Str();
      e.log_dir = r.Str();
      rep.outcome = std::move(e);
      return true;
    }
    case kHostFailed:
      rep.outcome = HostFailed{r.Str()};
      return true;
    case kTimedOut: {
      TimedOut t;
      t.limit = r.F64();
      t.log_dir = r.Str();
      rep.outcome = std::move(t);
      return true;
    }
    case kCancelled:
      rep.outcome = Cancelled{};
      return true;
  }
  return false;
}
bool Get(Reader& r, PutBegin& m) {
  m.id = r.U64();
  m.path = r.Str();
  m.size = r.U64();
  return true;
}
bool Get(Reader& r, PutChunk& m) {
  m.id = r.U64();
  m.data = r.Str();
  return true;
}
bool Get(Reader& r, PutEnd& m) {
  m.id = r.U64();
  m.size = r.U64();
  m.hash = r.U64();
  return true;
}
bool Get(Reader& r, PutDone& m) {
  m.id = r.U64();
  return true;
}
bool Get(Reader& r, GetRequest& m) {
  m.id = r.U64();
  m.path = r.Str();
  if (r.ok() && !r.at_end()) m.tail = r.U64();
  return true;
}
bool Get(Reader& r, GetChunk& m) {
  m.id = r.U64();
  m.data = r.Str();
  return true;
}
bool Get(Reader& r, GetEnd& m) {
  m.id = r.U64();
  m.size = r.U64();
  m.hash = r.U64();
  return true;
}
bool Get(Reader& r, Remove& m) {
  m.path = r.Str();
  return true;
}
bool Get(Reader& r, Error& m) {
  m.request = r.U64();
  const uint8_t code = r.U8();
  if (code > kMaxStatusCode) return false;
  m.code = static_cast<Status::Code>(code);
  m.message = r.Str();
  return true;
}
bool Get(Reader&, Shutdown&) { return true; }
bool Get(Reader& r, Sweep& m) {
  m.owner = r.Str();
  const uint32_t n = r.U32();
  // Nothing is reserved from the count: a count past what the frame
  // holds stops at the first short read.
  for (uint32_t i = 0; i < n && r.ok(); ++i) m.keep.push_back(r.Str());
  return true;
}

// Variant index i <-> MessageType i + 1.
static_assert(std::variant_size_v<Message> ==
              static_cast<size_t>(MessageType::kSweep));

template <size_t I = 0>
bool DecodeAs(size_t index, Reader& r, Message* out) {
  if constexpr (I < std::variant_size_v<Message>) {
    if (index != I) return DecodeAs<I + 1>(index, r, out);
    std::variant_alternative_t<I, Message> m;
    if (!Get(r, m)) return false;
    *out = std::move(m);
    return true;
  } else {
    return false;
  }
}

Status Malformed(MessageType type, std::string_view what) {
  return Status::InvalidArgument(std::string("malformed ") + TypeName(type) +
                                 " frame: " + std::string(what));
}

}  // namespace

MessageType TypeOf(const Message& message) {
  return static_cast<MessageType>(message.index() + 1);
}

const char* TypeName(MessageType type) {
  switch (type) {
    case MessageType::kHello:
      return "HELLO";
    case MessageType::kRunJob:
      return "RUN_JOB";
    case MessageType::kCancel:
      return "CANCEL";
    case MessageType::kHeartbeat:
      return "HEARTBEAT";
    case MessageType::kHeartbeatAck:
      return "HEARTBEAT_ACK";
    case MessageType::kJobFinished:
      return "JOB_FINISHED";
    case MessageType::kPutBegin:
      return "PUT_BEGIN";
    case MessageType::kPutChunk:
      return "PUT_CHUNK";
    case MessageType::kPutEnd:
      return "PUT_END";
    case MessageType::kPutDone:
      return "PUT_DONE";
    case MessageType::kGetRequest:
      return "GET_REQUEST";
    case MessageType::kGetChunk:
      return "GET_CHUNK";
    case MessageType::kGetEnd:
      return "GET_END";
    case MessageType::kRemove:
      return "REMOVE";
    case MessageType::kError:
      return "ERROR";
    case MessageType::kShutdown:
      return "SHUTDOWN";
    case MessageType::kSweep:
      return "SWEEP";
  }
  return "UNKNOWN";
}

void AppendFrame(const Message& message, std::string* out) {
  const size_t start = out->size();
  Writer w(out);
  w.U32(0);  // patched below
  w.U8(static_cast<uint8_t>(TypeOf(message)));
  std::visit([&w](const auto& m) { Put(w, m); }, message);
  const uint64_t length = out->size() - start - 4;
  // Senders never build frames the receiver must refuse.
  assert(length <= kMaxFrameBytes);
  for (int i = 0; i < 4; ++i) {
    (*out)[start + i] = static_cast<char>(length >> (8 * i));
  }
}

std::string Encode(const Message& message) {
  std::string out;
  AppendFrame(message, &out);
  return out;
}

Status CheckHello(const Hello& hello, std::string_view peer) {
  if (hello.magic != kMagic) {
    return Status::FailedPrecondition(
        std::string(peer) +
        " does not speak the gsrt agent protocol (its "
        "HELLO starts \"" +
        Printable(hello.magic) + "\")");
  }
  if (hello.major != kProtocolMajor) {
    return Status::FailedPrecondition(
        std::string(peer) + " speaks agent protocol " +
        std::to_string(hello.major) + "." + std::to_string(hello.minor) +
        " but this side speaks " + std::to_string(kProtocolMajor) + "." +
        std::to_string(kProtocolMinor) +
        "; install the same gsrt version on both sides");
  }
  return Status::Ok();
}

Status MakeStatus(Status::Code code, std::string_view message) {
  switch (code) {
    case Status::Code::kOk:
      return Status::Ok();
    case Status::Code::kInvalidArgument:
      return Status::InvalidArgument(message);
    case Status::Code::kNotFound:
      return Status::NotFound(message);
    case Status::Code::kIoError:
      return Status::IoError(message);
    case Status::Code::kUnavailable:
      return Status::Unavailable(message);
    case Status::Code::kPermissionDenied:
      return Status::PermissionDenied(message);
    case Status::Code::kFailedPrecondition:
      return Status::FailedPrecondition(message);
    case Status::Code::kTimedOut:
      return Status::TimedOut(message);
    case Status::Code::kCancelled:
      return Status::Cancelled(message);
    case Status::Code::kInternal:
      return Status::Internal(message);
  }
  return Status::Internal(message);
}

StatusOr<Message> DecodeBody(std::string_view body) {
  if (body.empty()) return Status::InvalidArgument("empty frame (no type)");
  const uint8_t type = static_cast<uint8_t>(body[0]);
  if (type < 1 || type > static_cast<uint8_t>(MessageType::kSweep)) {
    return Status::InvalidArgument("unknown message type " +
                                   std::to_string(type));
  }
  const auto mtype = static_cast<MessageType>(type);
  Reader r(body.substr(1));
  Message message;
  if (!DecodeAs(type - 1, r, &message)) {
    return Malformed(mtype, "a field holds a value out of range");
  }
  if (!r.ok()) return Malformed(mtype, "it ends inside a field");
  if (!r.at_end()) return Malformed(mtype, "bytes left after the last field");
  return message;
}

void FrameDecoder::Append(std::string_view bytes) {
  if (!error_.ok()) return;
  // Drop what was decoded before growing, so the buffer holds at most one
  // partial frame plus the new slice.
  if (read_ > 0 && read_ >= buffer_.size() / 2) {
    buffer_.erase(0, read_);
    read_ = 0;
  }
  buffer_.append(bytes);
}

StatusOr<std::optional<Message>> FrameDecoder::Next() {
  if (!error_.ok()) return error_;
  const size_t available = buffer_.size() - read_;
  if (available < 4) return std::optional<Message>();
  uint32_t length = 0;
  for (int i = 3; i >= 0; --i) {
    length = (length << 8) | static_cast<unsigned char>(buffer_[read_ + i]);
  }
  if (length == 0 || length > max_frame_) {
    error_ = Status::InvalidArgument(
        "frame at byte " + std::to_string(consumed_) + " declares " +
        std::to_string(length) + " bytes (allowed 1.." +
        std::to_string(max_frame_) +
        "); the stream is not the gsrt agent "
        "protocol or is corrupt: it starts \"" +
        Printable(std::string_view(buffer_).substr(read_)) + "\"");
    return error_;
  }
  if (available - 4 < length) return std::optional<Message>();
  auto message =
      DecodeBody(std::string_view(buffer_).substr(read_ + 4, length));
  if (!message.ok()) {
    error_ = message.status().WithContext("frame at byte " +
                                          std::to_string(consumed_));
    return error_;
  }
  read_ += 4 + length;
  consumed_ += 4 + length;
  if (read_ == buffer_.size()) {
    buffer_.clear();
    read_ = 0;
  }
  return std::optional<Message>(std::move(message).value());
}

std::string Printable(std::string_view bytes, size_t limit) {
  std::string out;
  for (size_t i = 0; i < bytes.size() && i < limit; ++i) {
    const unsigned char c = static_cast<unsigned char>(bytes[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  if (bytes.size() > limit) out += "...";
  return out;
}

}  // namespace gs::agent
