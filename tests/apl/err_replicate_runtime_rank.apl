⍝ Replicate along the last axis (/) of an array of rank 3 by counts computed
⍝ at run time, as the program's value: its last axis has a run-time length,
⍝ which the lowering keeps first ({∃X.[[[T]N]M]X}, SPEC §3.4) and reads
⍝ through a transposing view (+/ of it works: replicate_runtime_last.apl);
⍝ printing it would print that value transposed, which only a matrix's
⍝ output does: refused at the value.
A ← 2 2 3⍴⍳12
(1+A[1;1;]>1)/A

⍝ test: run-time counts for the last axis of an array of rank 3, printed
⍝ error: err_replicate_runtime_rank.apl:8:14:
⍝ error: not supported yet: an output of rank 3 whose last axis has a run-time length
