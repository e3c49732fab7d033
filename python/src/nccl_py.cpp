// python/src/nccl_py.cpp — NCCL for cunp.cuda.nccl (python/cunp/cuda/nccl.py wraps these).
#include <nanobind/stl/array.h>

#include "convert.hpp"
#include "cunp/nccl.hpp"

namespace cunp::py {
namespace {

namespace nccl = cuda::nccl;
using nccl::Communicator;
using nccl::DataType;
using nccl::RedOp;

nb::tuple id_to_tuple(const nccl::UniqueId& id) {
  nb::list out;
  for (char c : id) out.append(static_cast<int>(c));  // signed chars, as CuPy's tuple
  return nb::tuple(out);
}

nccl::UniqueId id_from_sequence(nb::handle seq) {
  const nb::sequence s = nb::borrow<nb::sequence>(seq);
  if (nb::len(s) != nccl::kUniqueIdBytes)
    throw ValueError("NcclCommunicator: commId must hold " + std::to_string(nccl::kUniqueIdBytes) +
                     " values (from get_unique_id()), got " + std::to_string(nb::len(s)));
  nccl::UniqueId id{};
  for (std::size_t i = 0; i < nccl::kUniqueIdBytes; ++i) {
    const long v = nb::cast<long>(s[i]);
    if (v < -128 || v > 255) throw ValueError("NcclCommunicator: commId values are bytes (-128..255)");
    id[i] = static_cast<char>(static_cast<unsigned char>(v & 0xff));
  }
  return id;
}

DataType as_type(int t) {
  if (t < 0 || t > 9) throw ValueError("nccl: datatype " + std::to_string(t) + " is not an NCCL_* datatype");
  return static_cast<DataType>(t);
}

RedOp as_op(int op) {
  if (op < 0 || op > 4) throw ValueError("nccl: op " + std::to_string(op) + " is not an NCCL_* reduction op");
  return static_cast<RedOp>(op);
}

void bind_nccl(nb::module_& m) {
  using nb::arg;
  m.def("_nccl_get_version", &nccl::get_version);
  m.def("_nccl_get_build_version", &nccl::get_build_version);
  m.def("_nccl_get_unique_id", [] { return id_to_tuple(nccl::get_unique_id()); });
  m.def("_nccl_group_start", &nccl::group_start);
  m.def("_nccl_group_end", [] {
    nb::gil_scoped_release nogil;
    nccl::group_end();
  });
  using U = std::uintptr_t;
  using S = std::size_t;
  nb::class_<Communicator>(m, "_NcclCommunicator")
      .def("__init__", [](Communicator* self, int ndev, nb::handle comm_id, int rank) {
        const nccl::UniqueId id = id_from_sequence(comm_id);
        nb::gil_scoped_release nogil;  // blocks until every rank joined, maybe from other threads
        new (self) Communicator(ndev, id, rank);
      }, arg("ndev"), arg("commId"), arg("rank"))
      .def_static("init_all", [](const std::vector<int>& devices) {
        nb::gil_scoped_release nogil;
        return Communicator::init_all(devices);
      }, arg("devices"))
      .def("device_id", &Communicator::device)
      .def("rank_id", &Communicator::rank)
      .def("size", &Communicator::size)
      .def_prop_ro("comm", [](const Communicator& c) { return reinterpret_cast<U>(c.handle()); })
      .def("destroy", &Communicator::destroy)
      .def("abort", &Communicator::abort)
      .def("check_async_error", &Communicator::check_async_error)
      // raw pointers, as cupy.cuda.nccl.NcclCommunicator
      .def("allReduce", [](const Communicator& c, U send, U recv, S count, int dtype, int op, U stream) {
        c.all_reduce(send, recv, count, as_type(dtype), as_op(op), stream);
      }, arg("sendbuf"), arg("recvbuf"), arg("count"), arg("datatype"), arg("op"), arg("stream"))
      .def("broadcast", [](const Communicator& c, U send, U recv, S count, int dtype, int root, U stream) {
        c.broadcast(send, recv, count, as_type(dtype), root, stream);
      }, arg("sendbuff"), arg("recvbuff"), arg("count"), arg("datatype"), arg("root"), arg("stream"))
      .def("bcast", [](const Communicator& c, U buf, S count, int dtype, int root, U stream) {
        c.bcast(buf, count, as_type(dtype), root, stream);
      }, arg("buff"), arg("count"), arg("datatype"), arg("root"), arg("stream"))
      .def("reduce", [](const Communicator& c, U send, U recv, S count, int dtype, int op, int root, U stream) {
        c.reduce(send, recv, count, as_type(dtype), as_op(op), root, stream);
      }, arg("sendbuf"), arg("recvbuf"), arg("count"), arg("datatype"), arg("op"), arg("root"), arg("stream"))
      .def("allGather", [](const Communicator& c, U send, U recv, S count, int dtype, U stream) {
        c.all_gather(send, recv, count, as_type(dtype), stream);
      }, arg("sendbuf"), arg("recvbuf"), arg("count"), arg("datatype"), arg("stream"))
      .def("reduceScatter", [](const Communicator& c, U send, U recv, S count, int dtype, int op, U stream) {
        c.reduce_scatter(send, recv, count, as_type(dtype), as_op(op), stream);
      }, arg("sendbuf"), arg("recvbuf"), arg("recvcount"), arg("datatype"), arg("op"), arg("stream"))
      .def("send", [](const Communicator& c, U buf, S count, int dtype, int peer, U stream) {
        c.send(buf, count, as_type(dtype), peer, stream);
      }, arg("sendbuf"), arg("count"), arg("datatype"), arg("peer"), arg("stream"))
      .def("recv", [](const Communicator& c, U buf, S count, int dtype, int peer, U stream) {
        c.recv(buf, count, as_type(dtype), peer, stream);
      }, arg("recvbuf"), arg("count"), arg("datatype"), arg("peer"), arg("stream"))
      // cunp arrays, on the current stream of the communicator's device
      .def("_all_reduce", [](const Communicator& c, const ndarray& s, const ndarray& r, int op) {
        c.all_reduce(s, r, as_op(op));
      })
      .def("_broadcast", [](const Communicator& c, const ndarray& s, const ndarray& r, int root) {
        c.broadcast(s, r, root);
      })
      .def("_reduce", [](const Communicator& c, const ndarray& s, const ndarray& r, int op, int root) {
        c.reduce(s, r, as_op(op), root);
      })
      .def("_all_gather", [](const Communicator& c, const ndarray& s, const ndarray& r) { c.all_gather(s, r); })
      .def("_reduce_scatter", [](const Communicator& c, const ndarray& s, const ndarray& r, int op) {
        c.reduce_scatter(s, r, as_op(op));
      })
      .def("_send", [](const Communicator& c, const ndarray& a, int peer) { c.send(a, peer); })
      .def("_recv", [](const Communicator& c, const ndarray& a, int peer) { c.recv(a, peer); });
}

[[maybe_unused]] const int registered = register_binder(&bind_nccl);

}  // namespace
}  // namespace cunp::py
