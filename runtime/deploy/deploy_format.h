// gsdeploy's text output: aligned tables of probe results, rankings,
// history reports and setup results. Pure functions returning text.
#ifndef GSRT_RUNTIME_DEPLOY_DEPLOY_FORMAT_H_
#define GSRT_RUNTIME_DEPLOY_DEPLOY_FORMAT_H_

#include <string>
#include <vector>

#include "runtime/deploy/deploy_history_report.h"
#include "runtime/deploy/deploy_probe.h"
#include "runtime/deploy/deploy_rank.h"
#include "runtime/deploy/deploy_setup.h"

namespace gs {

// Columns padded to their widest cell, two spaces apart, no trailing
// blanks; a header row, then the rows.
class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header);
  void Add(std::vector<std::string> row);
  std::string Render() const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

std::string FormatProbeResults(const std::vector<HostProbeResult>& results);
std::string FormatRankReport(const RankReport& report);
std::string FormatHistoryReport(const HistoryReport& report);
std::string FormatSetupResults(const std::vector<SetupHostResult>& results);

}  // namespace gs

#endif  // GSRT_RUNTIME_DEPLOY_DEPLOY_FORMAT_H_
