// SPDX-License-Identifier: Apache-2.0
//
// ara_rtm_pass: the RTM's compile-time instrumentation (docs/rtm.md,
// "Instrumentation"), an LLVM 14 pass plugin for clang's new pass manager:
//
//   clang --target=aarch64-linux-gnu -fpass-plugin=ara_rtm_pass.so ...
//
// Before every non-deterministic control-flow transfer of a function, it
// calls the App-side runtime (services/rtm/runtime/) with the destination:
//
//   indirect call or invoke   __ara_rtm_icall(callee)
//   indirectbr                __ara_rtm_ijmp(address)
//   ret                       __ara_rtm_ret(saved return address)
//
// The return address is read from the frame record, [frame pointer + 8],
// not from llvm.returnaddress (on AArch64 a copy of LR taken at entry,
// blind to a corrupted stack slot). Instrumented functions therefore get
// "frame-pointer"="all"; the call inserted before every ret makes every
// function a non-leaf, so LR is always saved in the record. Every function
// with a ret also gets a variable-sized stack object of run-time size 0:
// its epilogue then restores sp from the frame pointer before it reloads
// the frame record, so the ret uses the very slot the hook logged, even
// when a callee handed back a corrupted frame pointer. A musttail call
// cannot be separated from its ret: the ret is logged before the call,
// with the same slot (the callee returns to it).
//
// It runs last in the optimisation pipeline (also at -O0), so that no later
// IR pass moves a ret away from its log, and codegen makes no sibling call
// of a call that is no longer in tail position.
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Triple.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

namespace {

// The runtime's own functions are never instrumented, even when a build
// compiles the runtime with the plugin: a hook that logged itself would
// recurse.
constexpr StringLiteral HookPrefix = "__ara_rtm_";

// Offset of the saved return address in the frame record the frame
// pointer points to: AArch64 {x29, x30} (AAPCS64 6.2.3), x86-64 {rbp, return
// address}. Both are 8 bytes from the frame pointer.
constexpr uint64_t SavedReturnOffset = 8;

struct Hooks {
	FunctionCallee ICall, IJmp, Ret;
};

Hooks declareHooks(Module &M)
{
	LLVMContext &Ctx = M.getContext();
	auto *FnTy = FunctionType::get(Type::getVoidTy(Ctx), {Type::getInt8PtrTy(Ctx)}, false);
	// nounwind: the runtime never throws, so a hook needs no landing pad
	// and can be inserted before an invoke as a plain call.
	AttributeList Attrs = AttributeList().addFnAttribute(Ctx, Attribute::NoUnwind);
	return {M.getOrInsertFunction("__ara_rtm_icall", FnTy, Attrs),
		M.getOrInsertFunction("__ara_rtm_ijmp", FnTy, Attrs),
		M.getOrInsertFunction("__ara_rtm_ret", FnTy, Attrs)};
}

void callHook(IRBuilder<> &B, FunctionCallee Hook, Value *Dest)
{
	CallInst *CI = B.CreateCall(Hook, {B.CreatePointerCast(Dest, B.getInt8PtrTy())});
	CI->setDoesNotThrow();
}

// The return address the function's epilogue will reload: a volatile load,
// so that it is made here, right before the ret, and never merged or moved.
Value *savedReturnAddress(IRBuilder<> &B, Module &M)
{
	Function *FrameAddress =
		Intrinsic::getDeclaration(&M, Intrinsic::frameaddress, {B.getInt8PtrTy()});
	Value *Frame = B.CreateCall(FrameAddress, {B.getInt32(0)});
	Value *Slot = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Frame, SavedReturnOffset);
	Slot = B.CreatePointerCast(Slot, B.getInt8PtrTy()->getPointerTo());
	return B.CreateLoad(B.getInt8PtrTy(), Slot, /*isVolatile=*/true, "ara.rtm.ra");
}

// A stack object whose size the optimiser cannot see (0 at run time), so
// that codegen counts a variable-sized object in the function's frame
// (MachineFrameInfo::hasVarSizedObjects). For it, the AArch64 and x86-64
// epilogues restore sp from the frame pointer, then reload the saved
// registers and the frame record from there: the ret's return address
// comes from [frame pointer + 8], the slot savedReturnAddress() logs, and
// not from an sp-relative slot that a corrupted frame pointer would leave
// unlogged (docs/rtm.md, "The return address: read from the frame record").
void addVarSizedObject(Function &F)
{
	IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
	Type *SizeTy = B.getInt64Ty(); // both targets are 64-bit
	// "=r,0": the output is the input register, 0, unchanged; the asm is
	// empty, yet its output is opaque to every pass.
	InlineAsm *Opaque = InlineAsm::get(FunctionType::get(SizeTy, {SizeTy}, false), "",
					   "=r,0", /*hasSideEffects=*/true);
	Value *Size = B.CreateCall(Opaque, {B.getInt64(0)}, "ara.rtm.zero");
	AllocaInst *Obj = B.CreateAlloca(B.getInt8Ty(), Size, "ara.rtm.vla");
	// A use, so that no pass drops the alloca as dead; it emits nothing.
	InlineAsm *Use = InlineAsm::get(
		FunctionType::get(B.getVoidTy(), {Obj->getType()}, false), "", "r", true);
	B.CreateCall(Use, {Obj});
}

bool skipped(const Function &F, const SmallPtrSetImpl<const Function *> &Resolvers)
{
	if (F.isDeclaration() || F.getName().startswith(HookPrefix))
		return true;
	// A naked function has no prologue, hence no frame record to read.
	if (F.hasFnAttribute(Attribute::Naked))
		return true;
	// An ifunc resolver runs while the dynamic linker relocates, before
	// ARA exists in the process.
	return Resolvers.count(&F) != 0;
}

// -mbranch-protection=pac-ret sets a module flag; a function's attribute
// (__attribute__((target("branch-protection=..."))) overrides it.
bool signsReturnAddress(const Function &F)
{
	if (F.hasFnAttribute("sign-return-address"))
		return F.getFnAttribute("sign-return-address").getValueAsString() != "none";
	const auto *Flag = mdconst::extract_or_null<ConstantInt>(
		F.getParent()->getModuleFlag("sign-return-address"));
	return Flag && !Flag->isZero();
}

void instrumentFunction(Function &F, const Hooks &H)
{
	Module &M = *F.getParent();
	SmallVector<CallBase *, 16> Calls;
	SmallVector<IndirectBrInst *, 4> Jumps;
	SmallVector<ReturnInst *, 4> Rets;
	for (BasicBlock &BB : F)
		for (Instruction &I : BB) {
			if (auto *CB = dyn_cast<CallBase>(&I)) {
				// isIndirectCall(): a callee that is neither a function
				// nor a constant, and not inline asm.
				if (CB->isIndirectCall())
					Calls.push_back(CB);
			} else if (auto *IB = dyn_cast<IndirectBrInst>(&I)) {
				Jumps.push_back(IB);
			} else if (auto *RI = dyn_cast<ReturnInst>(&I)) {
				Rets.push_back(RI);
			}
		}

	for (CallBase *CB : Calls) {
		IRBuilder<> B(CB);
		callHook(B, H.ICall, CB->getCalledOperand());
	}
	for (IndirectBrInst *IB : Jumps) {
		IRBuilder<> B(IB);
		callHook(B, H.IJmp, IB->getAddress());
	}
	for (ReturnInst *RI : Rets) {
		// Nothing may come between a musttail call and its ret: log
		// before the call (after its own icall log, which is the transfer
		// that happens first).
		Instruction *At = RI;
		if (CallInst *Tail = RI->getParent()->getTerminatingMustTailCall())
			At = Tail;
		IRBuilder<> B(At);
		callHook(B, H.Ret, savedReturnAddress(B, M));
	}
	if (!Rets.empty())
		addVarSizedObject(F);
	// A frame record in every instrumented function, leaf or not: the ret
	// log reads the saved return address from it.
	F.addFnAttr("frame-pointer", "all");
	// The hooks call ARA: what earlier passes inferred about the function's
	// memory effects no longer holds.
	for (Attribute::AttrKind Kind :
	     {Attribute::ReadNone, Attribute::ReadOnly, Attribute::WriteOnly, Attribute::ArgMemOnly,
	      Attribute::InaccessibleMemOnly, Attribute::InaccessibleMemOrArgMemOnly,
	      Attribute::NoSync, Attribute::NoFree})
		F.removeFnAttr(Kind);
}

struct AraRtmPass : PassInfoMixin<AraRtmPass> {
	PreservedAnalyses run(Module &M, ModuleAnalysisManager &)
	{
		// Errors go through the context: clang prints them as its own
		// and fails the compilation.
		Triple T(M.getTargetTriple());
		if (T.getArch() != Triple::aarch64 && T.getArch() != Triple::x86_64) {
			M.getContext().emitError(
				Twine("ara-rtm: target ") + M.getTargetTriple() +
				" is not supported (aarch64 and x86_64 keep the saved return address "
				"at frame pointer + 8)");
			return PreservedAnalyses::all();
		}

		SmallPtrSet<const Function *, 4> Resolvers;
		for (const GlobalIFunc &IF : M.ifuncs())
			if (const Function *R = IF.getResolverFunction())
				Resolvers.insert(R);

		Hooks H = declareHooks(M);
		for (Function &F : M) {
			if (skipped(F, Resolvers))
				continue;
			if (signsReturnAddress(F)) {
				M.getContext().emitError(
					Twine("ara-rtm: ") + F.getName() +
					" signs its return address (-mbranch-protection): the saved LR "
					"would be logged signed; build instrumented code without "
					"pointer authentication");
				continue;
			}
			instrumentFunction(F, H);
		}
		return PreservedAnalyses::none();
	}

	// Run even for functions marked optnone (-O0).
	static bool isRequired() { return true; }
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo()
{
	return {LLVM_PLUGIN_API_VERSION, "ara-rtm", "1", [](PassBuilder &PB) {
			PB.registerOptimizerLastEPCallback(
				[](ModulePassManager &MPM, OptimizationLevel) {
					MPM.addPass(AraRtmPass());
				});
		}};
}
