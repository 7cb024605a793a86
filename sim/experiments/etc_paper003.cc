#include "sim/experiments/etc_paper003.h"

namespace gs {

std::vector<MachineFailure> Paper003Failures512x16() {
  struct Paper {
    int machine;  // Mj, from 1
    int task;     // Tk, from 1
  };
  static constexpr Paper kList[] = {{10, 165}, {3, 176}, {4, 182},  {15, 188},
                                    {1, 234},  {8, 314}, {16, 338}, {6, 370}};
  std::vector<MachineFailure> out;
  for (const Paper& p : kList) {
    out.push_back(
        {static_cast<HostId>(p.machine - 1), static_cast<size_t>(p.task - 1)});
  }
  return out;
}

const std::vector<Paper003Row>& Paper003Table512x16() {
  // Only the consistent instances: the inconsistent and semi-consistent ones
  // of the paper's table are not in sim/data.
  static const std::vector<Paper003Row> kRows = {
      {"u_c_hihi.0", 2.2159e7, 5.3052e7, 1.1423e7, 2.1794e7,  //
       1, 0.7088, 0.7020, 0.6424},
      {"u_c_hilo.0", 5.3951e5, 8.7844e5, 1.8589e5, 3.1088e5,  //
       1, 0.8071, 0.7090, 0.6489},
      {"u_c_lohi.0", 6.6846e5, 1.6256e6, 3.7830e5, 7.3675e5,  //
       1, 0.7056, 0.7054, 0.6320},
      {"u_c_lolo.0", 1.8065e4, 2.8962e4, 6.3601e3, 1.0175e4,  //
       1, 0.8119, 0.6980, 0.6568},
  };
  return kRows;
}

}  // namespace gs
