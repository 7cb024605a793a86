#include "adapters/adapter_wrapper.h"

#include <gtest/gtest.h>

#include <set>

#include "tests/support/recording_adapter.h"

namespace gs {
namespace {

using testing::RecordingAdapter;
using testing::SeamCall;
using testing::SeamCalls;

TEST(AdapterWrapperTest, EveryCallReachesTheTargetAndItsAnswerComesBack) {
  RecordingAdapter target;
  AdapterWrapper wrapper(target);
  for (const SeamCall& row : SeamCalls()) {
    SCOPED_TRACE(row.record);
    target.calls.clear();
    row.call(wrapper, target);
    EXPECT_EQ(target.calls, std::vector<std::string>{row.record});
  }
}

TEST(AdapterWrapperTest, TheTableNamesEachCallOnce) {
  std::set<std::string> names;
  for (const SeamCall& row : SeamCalls()) {
    names.insert(row.record.substr(0, row.record.find(' ')));
  }
  EXPECT_EQ(names.size(), SeamCalls().size());
}

// Changes one answer and keeps the target's for the rest.
class FewerSlots : public AdapterWrapper {
 public:
  using AdapterWrapper::AdapterWrapper;
  int FreeSlots() const override { return target().FreeSlots() - 1; }
};

TEST(AdapterWrapperTest, ADecoratorOverridesOnlyWhatItChanges) {
  RecordingAdapter target;
  FewerSlots decorator(target);
  EXPECT_EQ(decorator.FreeSlots(), target.answers.free_slots - 1);
  EXPECT_TRUE(target.Called("FreeSlots"));
  for (const SeamCall& row : SeamCalls()) {
    if (row.record == "FreeSlots") continue;
    SCOPED_TRACE(row.record);
    target.calls.clear();
    row.call(decorator, target);
    EXPECT_EQ(target.calls, std::vector<std::string>{row.record});
  }
}

}  // namespace
}  // namespace gs
