# SPDX-License-Identifier: GPL-2.0
# 32-bit PowerPC 440EP on QEMU's Bamboo board: 44x selects
# CONFIG_NOT_COHERENT_CACHE, so every mapping runs
# arch/powerpc/mm/dma-noncoherent.c. QEMU loads the ELF kernel and
# passes its own bamboo.dtb; the board takes at most 256 MiB. QEMU
# models no data cache.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='powerpc',
			   kconfig='''
CONFIG_PPC64=n
CONFIG_44x=y
CONFIG_BAMBOO=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_SERIAL_OF_PLATFORM=y''',
			   qemu_arch='ppc',
			   kernel_path='vmlinux',
			   kernel_command_line='console=ttyS0',
			   extra_qemu_params=['-machine', 'bamboo', '-m', '256'])
