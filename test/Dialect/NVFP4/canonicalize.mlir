// RUN: nvfp4-opt %s -canonicalize -split-input-file | FileCheck %s

// A conversion to the same layout is a copy.
// CHECK-LABEL: func @same_layout_linear
// CHECK-SAME:    (%[[SRC:.*]]: memref<1x256x16xf8E4M3FN>, %[[DST:.*]]: memref<1x256x16xf8E4M3FN>)
// CHECK-NEXT:    memref.copy %[[SRC]], %[[DST]] : memref<1x256x16xf8E4M3FN> to memref<1x256x16xf8E4M3FN>
// CHECK-NEXT:    return
func.func @same_layout_linear(%src: memref<1x256x16xf8E4M3FN>,
                              %dst: memref<1x256x16xf8E4M3FN>) {
  nvfp4.convert_scale_layout %src, %dst from <linear> to <linear>
      : memref<1x256x16xf8E4M3FN> to memref<1x256x16xf8E4M3FN>
  return
}

// -----

// CHECK-LABEL: func @same_layout_blocked
// CHECK-SAME:    (%[[SRC:.*]]: memref<2x2x4x512xf8E8M0FNU>, %[[DST:.*]]: memref<2x2x4x512xf8E8M0FNU>)
// CHECK-NEXT:    memref.copy %[[SRC]], %[[DST]]
// CHECK-NEXT:    return
func.func @same_layout_blocked(%src: memref<2x2x4x512xf8E8M0FNU>,
                               %dst: memref<2x2x4x512xf8E8M0FNU>) {
  nvfp4.convert_scale_layout %src, %dst from <blocked128x4> to <blocked128x4>
      : memref<2x2x4x512xf8E8M0FNU> to memref<2x2x4x512xf8E8M0FNU>
  return
}

// -----

// Converting a buffer onto itself in the same layout does nothing.
// CHECK-LABEL: func @same_layout_in_place
// CHECK-NEXT:    return
func.func @same_layout_in_place(%s: memref<1x256x16xf8E4M3FN>) {
  nvfp4.convert_scale_layout %s, %s from <linear> to <linear>
      : memref<1x256x16xf8E4M3FN> to memref<1x256x16xf8E4M3FN>
  return
}

// -----

// linear -> blocked -> linear: the second conversion is a copy of the
// original; the first one stays (its destination is still written).
// CHECK-LABEL: func @linear_round_trip
// CHECK-SAME:    (%[[LIN:.*]]: memref<1x130x6xf8E4M3FN>, %[[BLK:.*]]: memref<1x2x2x512xf8E4M3FN>, %[[OUT:.*]]: memref<1x130x6xf8E4M3FN>)
// CHECK-NEXT:    nvfp4.convert_scale_layout %[[LIN]], %[[BLK]] from <linear> to <blocked128x4>
// CHECK-NEXT:    memref.copy %[[LIN]], %[[OUT]] : memref<1x130x6xf8E4M3FN> to memref<1x130x6xf8E4M3FN>
// CHECK-NEXT:    return
func.func @linear_round_trip(%lin: memref<1x130x6xf8E4M3FN>,
                             %blk: memref<1x2x2x512xf8E4M3FN>,
                             %out: memref<1x130x6xf8E4M3FN>) {
  nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4>
      : memref<1x130x6xf8E4M3FN> to memref<1x2x2x512xf8E4M3FN>
  nvfp4.convert_scale_layout %blk, %out from <blocked128x4> to <linear>
      : memref<1x2x2x512xf8E4M3FN> to memref<1x130x6xf8E4M3FN>
  return
}

// -----

// Back into the original buffer: the second conversion disappears.
// CHECK-LABEL: func @linear_round_trip_in_place
// CHECK-SAME:    (%[[LIN:.*]]: memref<1x130x6xf8E4M3FN>, %[[BLK:.*]]: memref<1x2x2x512xf8E4M3FN>)
// CHECK-NEXT:    nvfp4.convert_scale_layout %[[LIN]], %[[BLK]] from <linear> to <blocked128x4>
// CHECK-NEXT:    return
func.func @linear_round_trip_in_place(%lin: memref<1x130x6xf8E4M3FN>,
                                      %blk: memref<1x2x2x512xf8E4M3FN>) {
  nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4>
      : memref<1x130x6xf8E4M3FN> to memref<1x2x2x512xf8E4M3FN>
  nvfp4.convert_scale_layout %blk, %lin from <blocked128x4> to <linear>
      : memref<1x2x2x512xf8E4M3FN> to memref<1x130x6xf8E4M3FN>
  return
}

// -----

// A read in between does not stop the fold.
// CHECK-LABEL: func @linear_round_trip_with_read
// CHECK:         nvfp4.convert_scale_layout
// CHECK-NEXT:    memref.load
// CHECK-NEXT:    memref.copy
// CHECK-NOT:     nvfp4.convert_scale_layout
func.func @linear_round_trip_with_read(%lin: memref<1x130x6xf8E4M3FN>,
                                       %blk: memref<1x2x2x512xf8E4M3FN>,
                                       %out: memref<1x130x6xf8E4M3FN>,
                                       %i: index) -> f8E4M3FN {
  nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4>
      : memref<1x130x6xf8E4M3FN> to memref<1x2x2x512xf8E4M3FN>
  %v = memref.load %blk[%i, %i, %i, %i] : memref<1x2x2x512xf8E4M3FN>
  nvfp4.convert_scale_layout %blk, %out from <blocked128x4> to <linear>
      : memref<1x2x2x512xf8E4M3FN> to memref<1x130x6xf8E4M3FN>
  return %v : f8E4M3FN
}

// -----

// blocked -> linear -> blocked is not folded: the second conversion zeroes
// the padding, which the original blocked buffer need not have.
// CHECK-LABEL: func @blocked_round_trip_kept
// CHECK-NEXT:    nvfp4.convert_scale_layout %{{.*}}, %{{.*}} from <blocked128x4> to <linear>
// CHECK-NEXT:    nvfp4.convert_scale_layout %{{.*}}, %{{.*}} from <linear> to <blocked128x4>
// CHECK-NEXT:    return
func.func @blocked_round_trip_kept(%blk: memref<1x2x2x512xf8E4M3FN>,
                                   %lin: memref<1x130x6xf8E4M3FN>,
                                   %out: memref<1x2x2x512xf8E4M3FN>) {
  nvfp4.convert_scale_layout %blk, %lin from <blocked128x4> to <linear>
      : memref<1x2x2x512xf8E4M3FN> to memref<1x130x6xf8E4M3FN>
  nvfp4.convert_scale_layout %lin, %out from <linear> to <blocked128x4>
      : memref<1x130x6xf8E4M3FN> to memref<1x2x2x512xf8E4M3FN>
  return
}

// -----

// A write to the blocked buffer in between: not folded.
// CHECK-LABEL: func @write_to_blocked_in_between
// CHECK-NEXT:    nvfp4.convert_scale_layout %{{.*}} from <linear> to <blocked128x4>
// CHECK-NEXT:    memref.store
// CHECK-NEXT:    nvfp4.convert_scale_layout %{{.*}} from <blocked128x4> to <linear>
// CHECK-NEXT:    return
func.func @write_to_blocked_in_between(%lin: memref<1x130x6xf8E4M3FN>,
                                       %blk: memref<1x2x2x512xf8E4M3FN>,
                                       %out: memref<1x130x6xf8E4M3FN>,
                                       %i: index, %v: f8E4M3FN) {
  nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4>
      : memref<1x130x6xf8E4M3FN> to memref<1x2x2x512xf8E4M3FN>
  memref.store %v, %blk[%i, %i, %i, %i] : memref<1x2x2x512xf8E4M3FN>
  nvfp4.convert_scale_layout %blk, %out from <blocked128x4> to <linear>
      : memref<1x2x2x512xf8E4M3FN> to memref<1x130x6xf8E4M3FN>
  return
}

// -----

// A write to the original linear buffer in between: a copy of it would now
// differ from the blocked data, so not folded.
// CHECK-LABEL: func @write_to_original_in_between
// CHECK-NEXT:    nvfp4.convert_scale_layout %{{.*}} from <linear> to <blocked128x4>
// CHECK-NEXT:    memref.store
// CHECK-NEXT:    nvfp4.convert_scale_layout %{{.*}} from <blocked128x4> to <linear>
// CHECK-NEXT:    return
func.func @write_to_original_in_between(%lin: memref<1x130x6xf8E4M3FN>,
                                        %blk: memref<1x2x2x512xf8E4M3FN>,
                                        %out: memref<1x130x6xf8E4M3FN>,
                                        %i: index, %v: f8E4M3FN) {
  nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4>
      : memref<1x130x6xf8E4M3FN> to memref<1x2x2x512xf8E4M3FN>
  memref.store %v, %lin[%i, %i, %i] : memref<1x130x6xf8E4M3FN>
  nvfp4.convert_scale_layout %blk, %out from <blocked128x4> to <linear>
      : memref<1x2x2x512xf8E4M3FN> to memref<1x130x6xf8E4M3FN>
  return
}

// -----

// A call in between may write anything: not folded.
// CHECK-LABEL: func @call_in_between
// CHECK:         nvfp4.convert_scale_layout %{{.*}} from <linear> to <blocked128x4>
// CHECK-NEXT:    call @opaque
// CHECK-NEXT:    nvfp4.convert_scale_layout %{{.*}} from <blocked128x4> to <linear>
func.func private @opaque(memref<1x2x2x512xf8E4M3FN>)
func.func @call_in_between(%lin: memref<1x130x6xf8E4M3FN>,
                           %blk: memref<1x2x2x512xf8E4M3FN>,
                           %out: memref<1x130x6xf8E4M3FN>) {
  nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4>
      : memref<1x130x6xf8E4M3FN> to memref<1x2x2x512xf8E4M3FN>
  call @opaque(%blk) : (memref<1x2x2x512xf8E4M3FN>) -> ()
  nvfp4.convert_scale_layout %blk, %out from <blocked128x4> to <linear>
      : memref<1x2x2x512xf8E4M3FN> to memref<1x130x6xf8E4M3FN>
  return
}

// -----

// The round trip through a blocked buffer of 256 x 8 scales into a 256 x 8
// destination does not reproduce the 130 x 6 original: not folded.
// CHECK-LABEL: func @shapes_differ
// CHECK-NEXT:    nvfp4.convert_scale_layout %{{.*}} from <linear> to <blocked128x4>
// CHECK-NEXT:    nvfp4.convert_scale_layout %{{.*}} from <blocked128x4> to <linear>
// CHECK-NEXT:    return
func.func @shapes_differ(%lin: memref<1x130x6xf8E4M3FN>,
                         %blk: memref<1x2x2x512xf8E4M3FN>,
                         %out: memref<1x256x8xf8E4M3FN>) {
  nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4>
      : memref<1x130x6xf8E4M3FN> to memref<1x2x2x512xf8E4M3FN>
  nvfp4.convert_scale_layout %blk, %out from <blocked128x4> to <linear>
      : memref<1x2x2x512xf8E4M3FN> to memref<1x256x8xf8E4M3FN>
  return
}

// -----

// The second conversion reads a different blocked buffer: not folded.
// CHECK-LABEL: func @other_buffer
// CHECK-NEXT:    nvfp4.convert_scale_layout %{{.*}} from <linear> to <blocked128x4>
// CHECK-NEXT:    nvfp4.convert_scale_layout %{{.*}} from <blocked128x4> to <linear>
// CHECK-NEXT:    return
func.func @other_buffer(%lin: memref<1x130x6xf8E4M3FN>,
                        %blk: memref<1x2x2x512xf8E4M3FN>,
                        %blk2: memref<1x2x2x512xf8E4M3FN>,
                        %out: memref<1x130x6xf8E4M3FN>) {
  nvfp4.convert_scale_layout %lin, %blk from <linear> to <blocked128x4>
      : memref<1x130x6xf8E4M3FN> to memref<1x2x2x512xf8E4M3FN>
  nvfp4.convert_scale_layout %blk2, %out from <blocked128x4> to <linear>
      : memref<1x2x2x512xf8E4M3FN> to memref<1x130x6xf8E4M3FN>
  return
}
