// The FMM on many ranks by a model (issue 22, item 5): P virtual ranks in one process. The bodies are
// partitioned for P parts (multisection.hpp), every part gets its tree, and every part's LET for every other
// part is selected (counted, P^2 walks), giving the communication per rank: messages, bytes, cells and bodies
// received. For the most loaded part the step is measured on this machine: its local FMM, the selection of
// its LETs, and the field of the LET it receives (built for real, with every sender's multipoles). The step
// time on P ranks is then modelled as
//   T(P) = T_plan + max(T_hidden, T_write + T_comm) + (T_local - T_hidden) + T_remote,
//   T_comm = messages * latency + bytes / bandwidth                                                       (1)
// as the ranks' FMM runs (distributed.hpp): the selection walk (T_plan) on the rank's thread before its local
// FMM; the writing of the LETs (T_write = T_select - T_plan, timed into kept buffers as a rank's second step
// writes) and the exchange on a writer thread beside the local FMM, up to the point where the received LET is
// needed: after the local M2L and P2P (the evaluation runs the near field first for it, evaluate.hpp), so
// T_hidden is the local FMM without its downward pass (measured on the timed part); then the downward pass and
// the received field. Were the writing hidden behind the whole local FMM:
//   T_whole(P) = T_plan + max(T_local, T_write + T_comm) + T_remote                                         (1')
// reported beside (1). The weak-scaling efficiency is E(P) = T_local(one rank, same bodies per rank) / T(P). (2)
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
// (5) still extrapolates the host's T_remote / T_local from the small parts, and there it misleads: at 2000
// bodies a part is 3 leaves wide, narrower than the near field (w ~ 4 leaves at theta 0.4), so every local
// leaf meets the whole shell and its local near field is cut short; both the received and the local work grow
// differently from there than (3) and m'/m say. The interior probe measures what the target needs directly:
//   T_remote / T_local at the target = (T_remote / T_local)_device(m_p) * G(m_p -> m') / (m' / m_p)          (6)
// at the centre of 27 parts of m_p bodies (its 26 neighbours as an interior rank's; m_p = 2^19: 20 leaves a
// side, 5 near fields), on the device, in one evaluation (walk on the host, M2L and P2P on the device, with
// their transfers), G by (3) fitted there. The distant ranks' cells, which (6) leaves out, are counted by
// the P-rank model: thousands of cells into a few hundred thousand local ones (docs/performance.md).
// What the step counts (1): the local FMM with its tree (the one-rank time at the target is measured so: one
// rank's step of the ranks' own code, `mpiexec -n 1 loom bench fmm --ranks_bodies`, device tree on the GPU), the
// LET selection (the walk: let_build of the ranks' report; the writing with the device multipoles gathered:
// let_write, hidden up to T_hidden), the exchange (hidden with the writing: each receiver's message leaves
// when written) and the received field (walk, far and near parts). Not counted: the partitioning (only when the
// imbalance exceeds its threshold) and the bodies' costs for it (the lists' counts, done with the step).
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
  double local = 0, select = 0, remote = 0, walk = 0;  // walk: the remote's dual traversal (host)
  double plan = 0;       // of select: the selection walk (the rest is the writing, into kept pages)
  double select_fresh = 0;  // the same with the writing into fresh pages (a rank's first call)
  double written_bytes = 0;  // what select wrote: the timed part's LETs for the others
  double after_far = 0;  // of local: its downward pass and P2P (after the received LET is needed)
  Index timed_bodies = 0;     // the bodies of the part timed: the one receiving the most bytes
  double one_rank_local = 0;  // the local FMM of a part of the mean size alone (T_local of (2))
  int ncrit = 64;             // the leaves' size, for (3)
};

// (3): how much more a rank receives at `scale` times the measured load.
double received_growth(const ModelRanks& m, double scale);

// P virtual parts of the bodies (strength: ncomp per body; sigma empty for Laplace).
// writer_threads: the threads a rank writes its LETs in (distributed.cpp: all the host's with the GPU backend,
// one with the CPU's).
ModelRanks model_ranks(Kernel kernel, const Options& o, std::span<const Vec3d> x, std::span<const double> strength,
                       std::span<const double> sigma, int ranks, int writer_threads = 1);

// (6): the interior probe, 27 parts (3 x 3 x 3) of `bodies_per_part` bodies, its centre part (the one
// receiving the most) timed in one evaluation with its received sources on o's backend (the device); the LET
// selection and the parts on the host (the writing in all its threads, as a GPU rank's writer).
ModelRanks model_interior(Kernel kernel, const Options& o, Index bodies_per_part);

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
  double plan = 0;    // of select: the walk, not hidden
  double hidden = 0;  // of local: what the writing and the exchange run beside (T_hidden)
  double step_whole = 0, efficiency_whole = 0;  // by (1'): hidden behind the whole local FMM
  double write = 0;                             // of select: the writing (select - plan)
  double volume = 0, volume_near = 0;           // (7): bytes a rank writes and sends, and receives; its near part
};
// (1)-(3) for the measured ranks, at `scale` = m'/m times the load per rank; local_seconds > 0 replaces the
// scaled local time, and scales select and remote with it unless `remote_on_host` (the received field and the
// LET selection on the host's CPU: they keep this machine's rates); the remote time also by `remote_factor` (5).
ModelStep model_step(const ModelRanks& m, const Network& net, double scale, double local_seconds = 0,
                     bool remote_on_host = false, double remote_factor = 1);
// (1), (2) at the target from (6): the received field's device time against the local FMM's at the interior
// probe, grown by (3) from the probe's load; target_seconds the local FMM (tree included) at target_bodies.
// What a rank writes and what it sends are one volume (an interior rank sends what it receives: its 26
// neighbours' shells are alike):
//   V = V_probe * G(m_p -> m') + V_ranks                                                                  (7)
// the interior probe's centre part's received bytes grown by (3) (the near neighbours' shells), plus what the
// most loaded receiver of the P-rank model (`ranks`) gets at its small load, not grown: what a distant sender
// sends is set by the ratio of its distance to the cells' sizes, the same at any load per rank (this also
// counts the small load's near neighbours once more, an overestimate of a few per cent at the target). Then
//   T_comm = messages * latency + V / bandwidth,   T_write = V * t_write / V_written                        (8)
// with t_write / V_written the probe's writing rate (its centre part's LETs for its 26 neighbours, written into
// kept pages in all the host's threads); the selection walk T_plan is the probe's grown by (3) plus the P-rank
// model's (the distant receivers' walk).
ModelStep model_step_interior(const ModelRanks& ranks, const ModelRanks& interior, const Network& net,
                              double target_bodies, double target_seconds);

}  // namespace loom::fmm::parallel
