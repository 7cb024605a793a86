#include "runtime/history/check_pace.h"

namespace gs {

bool CheckPace::Counts(Seconds time, bool answered) {
  const bool counts = answered || last_answered_ ||
                      !last_counted_unanswered_.has_value() ||
                      time - *last_counted_unanswered_ >= kCheckPace;
  last_answered_ = answered;
  if (!counts) return false;
  ++attempts_;
  if (!answered) {
    ++not_answered_;
    last_counted_unanswered_ = time;
  }
  return true;
}

}  // namespace gs
