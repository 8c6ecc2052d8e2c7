# 100 MiB over TCP between the two guests (t.bytes to change it), every byte verified by the
# receiver (guest-tests/tcpxfer.c): exercises TSO segmentation and checksum offload on Tx,
# checksum verification and multi-descriptor rings on Rx.
. /tests/lib.sh
bytes=${T_bytes:-104857600}
pair_up > /dev/null
case "$T_role" in
    a) tcpxfer send "$T_peer" 5001 "$bytes" 42 || fail "send failed" ;;
    b) tcpxfer recv 5001 "$bytes" 42 || fail "the stream did not arrive intact" ;;
    *) fail "unknown role '$T_role'" ;;
esac
