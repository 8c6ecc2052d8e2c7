# rdma-core's ibv_rc_pingpong and ibv_ud_pingpong (received buffers validated, -c), server and
# client in this guest on the device's own address: both ends must report every exchange's
# bytes (2 x size x iterations). RDMA_DEV: irdma0 by default, rxe0 from rxe-pingpong.sh.
. /tests/lib.sh
dev=${RDMA_DEV:-irdma0}
gid=$(rdma_dev_up "$dev")
ip=$(rdma_dev_ip "$dev")
iters=200
for spec in "ibv_rc_pingpong 4096" "ibv_ud_pingpong 512"; do
    set -- $spec
    timeout 60 "$1" -d "$dev" -g "$gid" -s "$2" -n "$iters" -c > "/tmp/$1.server" 2>&1 &
    srv=$!
    wait_tcp_listen 18515 20 || { cat "/tmp/$1.server"; fail "$1 server never listened"; }
    timeout 60 "$1" -d "$dev" -g "$gid" -s "$2" -n "$iters" -c "$ip" > "/tmp/$1.client" 2>&1 ||
        { cat "/tmp/$1.client"; fail "$1 client failed"; }
    wait "$srv" || { cat "/tmp/$1.server"; fail "$1 server failed"; }
    want=$(( 2 * $2 * iters ))
    for end in server client; do
        bytes=$(sed -n 's/^\([0-9]*\) bytes in .* seconds = .* Mbit\/sec$/\1/p' "/tmp/$1.$end")
        n=$(sed -n 's/^\([0-9]*\) iters in .* seconds = .* usec\/iter$/\1/p' "/tmp/$1.$end")
        [ "$bytes" = "$want" ] && [ "$n" = "$iters" ] ||
            { cat "/tmp/$1.$end"; fail "$1 $end: $bytes bytes in $n iters, want $want in $iters"; }
        echo "$1 $end: $(grep ' bytes in ' "/tmp/$1.$end")"
    done
done
