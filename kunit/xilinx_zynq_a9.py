# SPDX-License-Identifier: GPL-2.0
# This project's configuration for kunit.py --qemu_config (kunit/matrix),
# not proposed upstream: the board needs files from the build directory,
# which kunit.py does not hand a qemu_config (kunit/README.md).
# Cortex-A9 (ARMv7, 32-byte cache lines) on QEMU's xilinx-zynq-a9, the
# Zynq-7000, with its PL330 DMA controller: the one row here whose
# device is a real DMA master, driven by Linux's pl330 dmaengine driver
# for DMA_MEMCPY. QEMU models the PL330's copies, not a data cache, and
# instantiates no L2C-310 on this board.
# The ZC702 device tree's console is uart1 (ttyPS0), which QEMU connects
# to its second -serial: kunit.py's own -serial (the first, uart0) is
# set to null and the second is stdio, which kunit.py reads. The DTB is
# taken from the build directory: set KUNIT_BUILD_DIR to kunit.py's
# --build_dir if it is not the default .kunit.
import os
from ..qemu_config import QemuArchParams

BUILD_DIR = os.environ.get('KUNIT_BUILD_DIR', '.kunit')

QEMU_ARCH = QemuArchParams(linux_arch='arm',
			   kconfig='''
CONFIG_ARCH_ZYNQ=y
CONFIG_SERIAL_XILINX_PS_UART=y
CONFIG_SERIAL_XILINX_PS_UART_CONSOLE=y
CONFIG_DMADEVICES=y
CONFIG_PL330_DMA=y''',
			   qemu_arch='arm',
			   kernel_path='arch/arm/boot/zImage',
			   kernel_command_line='console=ttyPS0',
			   serial='null',
			   extra_qemu_params=['-serial', 'stdio',
					      '-machine', 'xilinx-zynq-a9',
					      '-dtb', os.path.join(BUILD_DIR, 'arch/arm/boot/dts/xilinx/zynq-zc702.dtb')])
