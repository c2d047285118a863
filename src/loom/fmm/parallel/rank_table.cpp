#include "loom/fmm/parallel/rank_table.hpp"

#include <fmt/format.h>

#include <ostream>

namespace loom::fmm::parallel {
namespace {
constexpr int figures = 26;

// The call's phases that add up to it: the tree (of it the host copy), the LETs' planning and the exchange, the
// local FMM (its kernels, lists, transfers, and the rest on the host), the received field, costs, the release.
void print_itemised(std::ostream& out, const std::vector<double>& f, int ranks) {
  out << "rank   call    tree  (host copy)  let+comm  local  (kernels  lists  transfer  rest)  remote    cost  "
         "release  unnamed\n";
  for (int r = 0; r < ranks; ++r) {
    const double* v = f.data() + static_cast<std::ptrdiff_t>(figures) * r;
    const double rest = v[4] - v[5] - v[21] - v[22];
    out << fmt::format("{:>4} {:>6.4f} {:>7.4f} {:>12.4f} {:>9.4f} {:>6.4f} {:>9.4f} {:>6.4f} {:>9.4f} {:>5.4f} "
                       "{:>7.4f} {:>7.4f} {:>8.4f} {:>8.4f}\n",
                       r, v[24], v[16], v[20], v[2] + v[3], v[4], v[5], v[21], v[22], rest, v[6], v[17], v[23], v[25]);
  }
}
}  // namespace

std::vector<double> gather_rank_figures(const comm::Communicator& comm, const RankReport& r, double partition) {
  const double mine[figures] = {double(r.bodies),     partition, r.let_build, r.communication, r.local,
                                r.local_time.evaluation(), r.remote, double(r.let_cells_received),
                                double(r.let_bodies_received), double(r.local_stats.m2l_pairs),
                                double(r.remote_pairs.m2l), r.local_stats.p2p_interactions,
                                r.remote_pairs.p2p_interactions, r.remote_time.walk, r.remote_time.far,
                                r.remote_time.near, r.tree, r.cost, r.let_write, r.let_wait, r.tree_host,
                                r.local_time.traversal, r.local_time.transfer, r.release, r.total, r.unnamed()};
  return comm.gather(mine);
}

nlohmann::json print_rank_table(std::ostream& out, const std::vector<double>& f, int ranks) {
  out << "rank    bodies  partition    tree  let_build  (write / wait)  communication  local  (kernels)  remote  "
         "(walk / far / near)    cost  let_cells  let_bodies  m2l local / remote  p2p local / remote\n";
  nlohmann::json j;
  j["ranks"] = ranks;
  for (const char* key : {"bodies_per_rank", "let_cells_received", "let_bodies_received", "seconds_per_rank",
                          "work_per_rank"})
    j[key] = nlohmann::json::array();
  for (int r = 0; r < ranks; ++r) {
    const double* v = f.data() + static_cast<std::ptrdiff_t>(figures) * r;
    out << fmt::format("{:>4} {:>9} {:>10.4f} {:>7.4f} {:>10.4f} {:>7.4f} / {:.4f} {:>14.4f} {:>6.4f} {:>10.4f} {:>7.4f}"
                       " {:>6.4f} / {:.4f} / {:.4f} {:>7.4f} {:>10} {:>11} {:>9.3g} / {:<8.3g} {:>8.3g} / {:.3g}\n",
                       r, Index(v[0]), v[1], v[16], v[2], v[18], v[19], v[3], v[4], v[5], v[6], v[13], v[14], v[15], v[17],
                       Index(v[7]), Index(v[8]), v[9], v[10], v[11], v[12]);
    j["bodies_per_rank"].push_back(Index(v[0]));
    j["let_cells_received"].push_back(Index(v[7]));
    j["let_bodies_received"].push_back(Index(v[8]));
    j["seconds_per_rank"].push_back({{"partition", v[1]}, {"tree", v[16]}, {"let_build", v[2]}, {"let_write", v[18]},
                                     {"let_wait", v[19]}, {"cost", v[17]}, {"communication", v[3]},
                                     {"local", v[4]}, {"kernels", v[5]}, {"remote", v[6]}, {"remote_walk", v[13]},
                                     {"remote_far", v[14]}, {"remote_near", v[15]}, {"tree_host", v[20]},
                                     {"local_lists", v[21]}, {"local_transfer", v[22]}, {"release", v[23]},
                                     {"call", v[24]}, {"unnamed", v[25]}});
    // the pairs behind the times: M2L pairs and body-body interactions, of the local FMM and of the received LET
    j["work_per_rank"].push_back({{"m2l_local", v[9]}, {"m2l_remote", v[10]}, {"p2p_interactions_local", v[11]},
                                  {"p2p_interactions_remote", v[12]}});
  }
  print_itemised(out, f, ranks);
  return j;
}

}  // namespace loom::fmm::parallel
