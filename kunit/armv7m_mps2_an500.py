# SPDX-License-Identifier: GPL-2.0
# This project's configuration for kunit.py --qemu_config (kunit/matrix),
# not proposed upstream: the board needs files from the build directory,
# which kunit.py does not hand a qemu_config (kunit/README.md).
# ARMv7-M Cortex-M7 without MMU on QEMU's mps2-an500: the !MMU DMA path,
# arch/arm/mm/dma-mapping-nommu.c and the v7-M cache functions.
#
# QEMU boots an M-profile core from the vector table at address 0; it
# passes no DTB, no boot registers and no -append command line. So:
#  - -kernel is vmlinux, an ELF that QEMU loads at its link address
#    (DRAM_BASE + 0x8000, below);
#  - a 96-byte boot stub, written below into the build directory and
#    loaded at address 0, holds the vector table, enables the UART's
#    transmitter and receiver (a boot loader's job: the mps2-uart console
#    waits forever on a disabled transmitter), sets r0 = 0, r1 = ~0 (no
#    machine number: DT boot), r2 = the DTB, and jumps to the kernel in
#    Thumb state, as head-nommu.S expects;
#  - the DTB is the kernel's mps2-an399 one (Cortex-M7, RAM at
#    0x60000000 as on QEMU's an500), loaded outside the kernel's RAM;
#  - the command line is built in and forced: kunit.py's -append (and so
#    its --kernel_args and filters) does not reach the kernel.
# The stub and the DTB are found through KUNIT_BUILD_DIR, which must name
# kunit.py's --build_dir if it is not the default .kunit.
# QEMU refuses kunit.py's -m 1024 (this board has 16 MiB); the later
# -m 16M wins. The kernel cannot reset this board, so kunit_shutdown=reboot
# ends in "Reboot failed -- System halted": run it with --timeout.
import os
import struct
from ..qemu_config import QemuArchParams

BUILD_DIR = os.environ.get('KUNIT_BUILD_DIR', '.kunit')
DRAM_BASE = 0x60000000
DTB_ADDR = 0x20000000		# ZBT SSRAM2/3: not the kernel's memory
STUB_SP = 0x20400000		# top of that SSRAM, for the stub only
STUB = os.path.join(BUILD_DIR, 'mps2-boot-stub.bin')

UART0 = 0x40004000		# CMSDK APB UART, ttyMPS0

# Thumb code at 0x40; the literals follow it at 0x50.
_code = [
	0x4b03,			# 0x40 ldr  r3, [pc, #12]	@ 0x50: UART0
	0x2003,			# 0x42 movs r0, #3
	0x6098,			# 0x44 str  r0, [r3, #8]	@ CTRL = TX_EN | RX_EN
	0x2000,			# 0x46 movs r0, #0
	0x4902,			# 0x48 ldr  r1, [pc, #8]	@ 0x54: ~0
	0x4a03,			# 0x4a ldr  r2, [pc, #12]	@ 0x58: DTB
	0x4b03,			# 0x4c ldr  r3, [pc, #12]	@ 0x5c: kernel | 1
	0x4718,			# 0x4e bx   r3
]
_stub = (struct.pack('<2I', STUB_SP, 0x40 | 1) + bytes(0x38) +
	 struct.pack(f'<{len(_code)}H', *_code) +
	 struct.pack('<4I', UART0, 0xffffffff, DTB_ADDR, (DRAM_BASE + 0x8000) | 1))
os.makedirs(BUILD_DIR, exist_ok=True)
with open(STUB, 'wb') as f:
	f.write(_stub)

QEMU_ARCH = QemuArchParams(linux_arch='arm',
			   kconfig=f'''
CONFIG_MMU=n
CONFIG_ARCH_MPS2=y
CONFIG_SET_MEM_PARAM=y
CONFIG_DRAM_BASE={DRAM_BASE:#x}
CONFIG_DRAM_SIZE=0x1000000
CONFIG_SERIAL_MPS2_UART=y
CONFIG_SERIAL_MPS2_UART_CONSOLE=y
CONFIG_CMDLINE="console=ttyMPS0 kunit_shutdown=reboot"
CONFIG_CMDLINE_FORCE=y''',
			   qemu_arch='arm',
			   kernel_path='vmlinux',
			   kernel_command_line='console=ttyMPS0',
			   extra_qemu_params=['-machine', 'mps2-an500', '-m', '16M',
					      '-device', f'loader,file={STUB},addr=0',
					      '-device', 'loader,file=' +
					      os.path.join(BUILD_DIR, 'arch/arm/boot/dts/arm/mps2-an399.dtb') +
					      f',addr={DTB_ADDR:#x}'])
