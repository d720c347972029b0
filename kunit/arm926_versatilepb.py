# SPDX-License-Identifier: GPL-2.0
# This project's configuration for kunit.py --qemu_config (kunit/matrix),
# not proposed upstream: the board needs files from the build directory,
# which kunit.py does not hand a qemu_config (kunit/README.md).
# ARMv5 ARM926EJ-S on QEMU's versatilepb, a write-back cache kernel
# (ARCH_VERSATILE does not select CPU_DCACHE_WRITETHROUGH). QEMU refuses
# kunit.py's -m 1024 on this board; the later -m 256 wins. The DTB is
# taken from the build directory: set KUNIT_BUILD_DIR to kunit.py's
# --build_dir if it is not the default .kunit.
import os
from ..qemu_config import QemuArchParams

BUILD_DIR = os.environ.get('KUNIT_BUILD_DIR', '.kunit')

QEMU_ARCH = QemuArchParams(linux_arch='arm',
			   kconfig='''
CONFIG_ARCH_MULTI_V7=n
CONFIG_ARCH_MULTI_V5=y
CONFIG_ARCH_VERSATILE=y
CONFIG_CPU_DCACHE_WRITETHROUGH=n
CONFIG_SERIAL_AMBA_PL011=y
CONFIG_SERIAL_AMBA_PL011_CONSOLE=y''',
			   qemu_arch='arm',
			   kernel_path='arch/arm/boot/zImage',
			   kernel_command_line='console=ttyAMA0',
			   extra_qemu_params=['-machine', 'versatilepb', '-m', '256',
					      '-dtb', os.path.join(BUILD_DIR, 'arch/arm/boot/dts/arm/versatile-pb.dtb')])
