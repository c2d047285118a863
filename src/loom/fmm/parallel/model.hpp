// The FMM on many ranks by a model (issue 22, item 5): P virtual ranks in one process. The bodies are
// partitioned for P parts (multisection.hpp), every part gets its tree, and every part's LET for every other
// part is selected (counted, P^2 walks), giving the communication per rank: messages, bytes, cells and bodies
// received. For the most loaded part the step is measured on this machine: its local FMM, the selection of
// its LETs, and the field of the LET it receives (built for real, with every sender's multipoles). The step
// time on P ranks is then modelled as
//   T(P) = T_select + max(T_local, T_comm) + T_remote,   T_comm = messages * latency + bytes / bandwidth   (1)
// (the exchange hidden behind the local FMM, as the ranks' FMM overlaps them) and the weak-scaling efficiency
// as E(P) = T_local(one rank, same bodies per rank) / T(P).                                               (2)
// A larger load per rank m' (the paper's 1.68e7 per GPU) is extrapolated from the measured load m: the local
// work grows as m'/m (or is given, e.g. measured on the GPU); what a rank receives (LET bodies and cells, their
// selection and field) as the shell that the MAC's near field makes around its domain, a fixed number w of
// leaves wide at a fixed ncrit: with the domain a cube of s = (m / ncrit)^(1/3) leaves, the shell holds
// (s + 2w)^3 - s^3 leaves, w solved from the LET bodies measured at m, and the growth is the shell at m' over
// the shell at m.                                                                                         (3)
// (3) tends to the surface law (m'/m)^(2/3) once s >> w; from the small loads a model can afford per virtual
// rank (2000 bodies: s = 3, w = 4) the surface law overstated the received volume at 1.68e7 five-fold.
// Without received bodies (one part) the surface law stands.
// The received field's time at the target machine (a GPU) is this machine's scaled by the local FMM's speed-up
// there (model_target_seconds) times a factor f measured on a probe, two halves of a cube of bodies, each part
// timed in one local evaluation with its received sources (received_sources.hpp) on the host and on the device:
//   f = (T_remote / T_local)_device / (T_remote / T_local)_host                                         (5)
// f = 1 is the assumption that the received field gains on the device what the local FMM gains.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "loom/fmm/fmm.hpp"

namespace loom::fmm::parallel {

struct Network {
  double bandwidth = 0;  // bytes per second into one rank
  double latency = 0;    // seconds per message
};
// "ndr": InfiniBand NDR (400 Gb/s per port, ~2 us per MPI message); "nvlink": H100/H200 NVLink 4 (450 GB/s
// per direction, ~3 us per message through MPI). UsageError otherwise.
Network parse_network(std::string_view name);

struct ModelRanks {
  int ranks = 0;
  Index bodies = 0, max_bodies = 0;  // all, and the most loaded part's
  double imbalance = 1;              // max / mean bodies per part
  // Received per rank (the most loaded receiver by bytes, and the mean): bytes, messages, cells, bodies.
  double max_bytes = 0, mean_bytes = 0, max_messages = 0, mean_messages = 0;
  Index max_cells = 0, max_let_bodies = 0;
  // Measured here for the most loaded part, in one evaluation: its local FMM, the selection of its LETs, the
  // received field.
  double local = 0, select = 0, remote = 0;
  double one_rank_local = 0;  // the local FMM of a part of the mean size alone (T_local of (2))
  int ncrit = 64;             // the leaves' size, for (3)
};

// (3): how much more a rank receives at `scale` times the measured load.
double received_growth(const ModelRanks& m, double scale);

// P virtual parts of the bodies (strength: ncomp per body; sigma empty for Laplace).
ModelRanks model_ranks(Kernel kernel, const Options& o, std::span<const Vec3d> x, std::span<const double> strength,
                       std::span<const double> sigma, int ranks);

// (5): the probe's two parts of `bodies_per_part`, the larger part's local FMM and received field (least of
// three evaluations after one) on the CPU and on the CUDA device (`o`'s other options for both).
struct RemoteProbe {
  Index bodies = 0;
  double host_local = 0, host_remote = 0, device_local = 0, device_remote = 0;
  double host_walk = 0, device_walk = 0;  // the remote's dual traversal (on the host in both)
  double factor() const { return (device_remote / device_local) / (host_remote / host_local); }
};
RemoteProbe probe_remote(Kernel kernel, const Options& o, Index bodies_per_part);

struct ModelStep {
  double local = 0, select = 0, remote = 0, communication = 0, step = 0, efficiency = 0;
};
// (1)-(3) for the measured ranks, at `scale` = m'/m times the load per rank; local_seconds > 0 replaces the
// scaled local time, and scales select and remote with it unless `remote_on_host` (the received field and the
// LET selection on the host's CPU: they keep this machine's rates); the remote time also by `remote_factor` (5).
ModelStep model_step(const ModelRanks& m, const Network& net, double scale, double local_seconds = 0,
                     bool remote_on_host = false, double remote_factor = 1);

}  // namespace loom::fmm::parallel
