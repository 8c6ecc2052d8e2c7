# rdma-core's ibv_rc_pingpong and ibv_ud_pingpong (received buffers validated, -c), server and
# client in this guest on the device's own address: both ends must report every exchange's
# bytes (2 x size x iterations). RDMA_DEV: irdma0 by default, rxe0 from rxe-pingpong.sh.
. /tests/lib.sh
dev=${RDMA_DEV:-irdma0}
gid=$(rdma_dev_up "$dev") || fail "$dev did not come up"
ip=$(rdma_dev_ip "$dev") || fail "no address for $dev"
iters=200
for spec in "ibv_rc_pingpong 4096" "ibv_ud_pingpong 512"; do
    set -- $spec
    server_and_client "$ip" "$1" -d "$dev" -g "$gid" -s "$2" -n "$iters" -c
    want=$(( 2 * $2 * iters ))
    for end in server client; do
        bytes=$(sed -n 's/^\([0-9]*\) bytes in .* seconds = .* Mbit\/sec$/\1/p' "/tmp/$1.$end")
        n=$(sed -n 's/^\([0-9]*\) iters in .* seconds = .* usec\/iter$/\1/p' "/tmp/$1.$end")
        [ "$bytes" = "$want" ] && [ "$n" = "$iters" ] ||
            { cat "/tmp/$1.$end"; fail "$1 $end: $bytes bytes in $n iters, want $want in $iters"; }
        echo "$1 $end: $(grep ' bytes in ' "/tmp/$1.$end")"
    done
done
