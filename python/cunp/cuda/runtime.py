"""Thin wrappers over the CUDA runtime API, named as in cupy.cuda.runtime."""
from cunp import _core

CUDARuntimeError = _core.CUDARuntimeError
getDeviceCount = _core.getDeviceCount
runtimeGetVersion = _core.runtimeGetVersion
driverGetVersion = _core.driverGetVersion
deviceSynchronize = _core.deviceSynchronize
getDevice = _core.getDevice
setDevice = _core.setDevice
memGetInfo = _core.memGetInfo
getDeviceProperties = _core.getDeviceProperties
deviceCanAccessPeer = _core.deviceCanAccessPeer
deviceEnablePeerAccess = _core.deviceEnablePeerAccess
deviceDisablePeerAccess = _core.deviceDisablePeerAccess
