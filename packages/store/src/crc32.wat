;; The CRC-32 of zlib (IEEE 802.3, reflected, polynomial 0xEDB88320), eight bytes a step
;; (slicing-by-8): `crc32.ts` sums the caches' bytes with it where loading node:zlib would cost
;; more than the sum. `init` fills the tables; `crc(value, at, length)` goes on from `value`,
;; the checksum of the bytes before, over `length` bytes from `at`.
;; `node scripts/build-crc32-wasm.mjs` writes this module's bytes into crc32-wasm.ts.
(module
  (memory (export "memory") 2)
  ;; Its memory: eight tables of 256 CRCs (T0 at 0, T1 at 1024, … T7 at 7168), then the bytes to sum (from 8192).
  (func (export "init")
    (local $n i32) (local $c i32) (local $k i32) (local $t i32)
    (loop $outer
      (local.set $c (local.get $n))
      (local.set $k (i32.const 8))
      (loop $bits
        (local.set $c
          (if (result i32) (i32.and (local.get $c) (i32.const 1))
            (then (i32.xor (i32.const 0xEDB88320) (i32.shr_u (local.get $c) (i32.const 1))))
            (else (i32.shr_u (local.get $c) (i32.const 1)))))
        (local.set $k (i32.sub (local.get $k) (i32.const 1)))
        (br_if $bits (local.get $k)))
      (i32.store (i32.shl (local.get $n) (i32.const 2)) (local.get $c))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (br_if $outer (i32.lt_u (local.get $n) (i32.const 256))))
    ;; Tk[n] = (T(k-1)[n] >>> 8) ^ T0[T(k-1)[n] & 0xff]
    (local.set $t (i32.const 1024))
    (loop $tab
      (local.set $c (i32.load (i32.sub (local.get $t) (i32.const 1024))))
      (i32.store (local.get $t)
        (i32.xor (i32.shr_u (local.get $c) (i32.const 8))
                 (i32.load (i32.shl (i32.and (local.get $c) (i32.const 255)) (i32.const 2)))))
      (local.set $t (i32.add (local.get $t) (i32.const 4)))
      (br_if $tab (i32.lt_u (local.get $t) (i32.const 8192)))))
  (func (export "crc") (param $crc i32) (param $p i32) (param $len i32) (result i32)
    (local $end i32) (local $hi i32) (local $c i32)
    (local.set $c (i32.xor (local.get $crc) (i32.const -1)))
    (local.set $end (i32.add (local.get $p) (i32.and (local.get $len) (i32.const -8))))
    (block $done8
      (br_if $done8 (i32.ge_u (local.get $p) (local.get $end)))
      (loop $l8
        (local.set $c (i32.xor (local.get $c) (i32.load (local.get $p))))
        (local.set $hi (i32.load offset=4 (local.get $p)))
        (local.set $c
          (i32.xor
            (i32.xor
              (i32.xor
                (i32.load offset=7168 (i32.shl (i32.and (local.get $c) (i32.const 255)) (i32.const 2)))
                (i32.load offset=6144 (i32.shl (i32.and (i32.shr_u (local.get $c) (i32.const 8)) (i32.const 255)) (i32.const 2))))
              (i32.xor
                (i32.load offset=5120 (i32.shl (i32.and (i32.shr_u (local.get $c) (i32.const 16)) (i32.const 255)) (i32.const 2)))
                (i32.load offset=4096 (i32.shl (i32.shr_u (local.get $c) (i32.const 24)) (i32.const 2)))))
            (i32.xor
              (i32.xor
                (i32.load offset=3072 (i32.shl (i32.and (local.get $hi) (i32.const 255)) (i32.const 2)))
                (i32.load offset=2048 (i32.shl (i32.and (i32.shr_u (local.get $hi) (i32.const 8)) (i32.const 255)) (i32.const 2))))
              (i32.xor
                (i32.load offset=1024 (i32.shl (i32.and (i32.shr_u (local.get $hi) (i32.const 16)) (i32.const 255)) (i32.const 2)))
                (i32.load (i32.shl (i32.shr_u (local.get $hi) (i32.const 24)) (i32.const 2)))))))
        (local.set $p (i32.add (local.get $p) (i32.const 8)))
        (br_if $l8 (i32.lt_u (local.get $p) (local.get $end)))))
    (local.set $end (i32.add (local.get $end) (i32.and (local.get $len) (i32.const 7))))
    (block $done
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (loop $l1
        (local.set $c
          (i32.xor (i32.shr_u (local.get $c) (i32.const 8))
            (i32.load (i32.shl (i32.and (i32.xor (local.get $c) (i32.load8_u (local.get $p))) (i32.const 255)) (i32.const 2)))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br_if $l1 (i32.lt_u (local.get $p) (local.get $end)))))
    (i32.xor (local.get $c) (i32.const -1))))
