# SPDX-License-Identifier: GPL-2.0
# This project's configuration for kunit.py --qemu_config (kunit/matrix),
# not proposed upstream: the board needs files from the build directory,
# which kunit.py does not hand a qemu_config (kunit/README.md).
# ARMv6K ARM11 MPCore on QEMU's realview-eb-mpcore, with the L2C-220
# outer cache: the one board here on which outer_clean_range() and
# outer_inv_range() reach a cache controller (QEMU models its registers,
# not its data). An ARMv6-only kernel cannot be SMP (only ARCH_MULTI_V7
# selects HAVE_SMP), so this one runs on one CPU. Only the ctrevb DTB
# boots. Reboot does not reset this board: run it with --timeout=90.
# The DTB is taken from the build directory: set KUNIT_BUILD_DIR to
# kunit.py's --build_dir if it is not the default .kunit.
import os
from ..qemu_config import QemuArchParams

BUILD_DIR = os.environ.get('KUNIT_BUILD_DIR', '.kunit')

QEMU_ARCH = QemuArchParams(linux_arch='arm',
			   kconfig='''
CONFIG_ARCH_MULTI_V7=n
CONFIG_ARCH_MULTI_V6=y
CONFIG_ARCH_REALVIEW=y
CONFIG_MACH_REALVIEW_EB=y
CONFIG_CACHE_L2X0=y
CONFIG_SERIAL_AMBA_PL011=y
CONFIG_SERIAL_AMBA_PL011_CONSOLE=y''',
			   qemu_arch='arm',
			   kernel_path='arch/arm/boot/zImage',
			   kernel_command_line='console=ttyAMA0',
			   extra_qemu_params=['-machine', 'realview-eb-mpcore', '-m', '256',
					      '-dtb', os.path.join(BUILD_DIR, 'arch/arm/boot/dts/arm/arm-realview-eb-11mp-ctrevb.dtb')])
