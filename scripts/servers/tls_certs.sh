# scripts/servers/tls_certs.sh: a throwaway test CA and server certificate for the
# TLS variants of the test servers (pg.sh start-tls, mysql.sh start-tls),
# sourced by those scripts. Never for production: the keys sit unencrypted in
# a temp dir and live as long as the server does.
#
#   tls_certs DIR   writes into DIR (openssl, RSA 2048, SHA-256, 2 days):
#     ca.pem, ca.key              the test CA
#     server.pem, server.key      signed by ca.pem, for the name "localhost"
#                                 only (CN and subjectAltName DNS:localhost; no
#                                 IP entry, so 127.0.0.1 is a wrong name)
#     other-ca.pem, other-ca.key  a second CA that signed nothing: the wrong CA
#     client.pem, client.key      a client certificate signed by ca.pem
#     expired.pem, expired.key    signed by ca.pem for "localhost", valid only on
#                                 2020-01-01 (expired: openssl ca -startdate/-enddate)
#   Returns non-zero (openssl's output in DIR/tls.log) when a step fails.

tls_certs() {
	local d=$1
	{
		openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 2 -subj "/CN=dlock test CA" \
			-keyout "$d/ca.key" -out "$d/ca.pem" &&
			openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 2 -subj "/CN=dlock other CA" \
				-keyout "$d/other-ca.key" -out "$d/other-ca.pem" &&
			openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=localhost" \
				-keyout "$d/server.key" -out "$d/server.csr" &&
			printf 'subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >"$d/server.ext" &&
			openssl x509 -req -in "$d/server.csr" -CA "$d/ca.pem" -CAkey "$d/ca.key" -CAcreateserial \
				-days 2 -sha256 -extfile "$d/server.ext" -out "$d/server.pem" &&
			openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=dlock" \
				-keyout "$d/client.key" -out "$d/client.csr" &&
			openssl x509 -req -in "$d/client.csr" -CA "$d/ca.pem" -CAkey "$d/ca.key" -CAcreateserial \
				-days 2 -sha256 -out "$d/client.pem" &&
			mkdir -p "$d/ca-db" && : >"$d/ca-db/index.txt" && echo 01 >"$d/ca-db/serial" &&
			printf '%s\n' '[ca]' 'default_ca = dl' '[dl]' "database = $d/ca-db/index.txt" \
				"serial = $d/ca-db/serial" "new_certs_dir = $d/ca-db" 'default_md = sha256' \
				'policy = any' 'copy_extensions = copy' '[any]' 'commonName = supplied' >"$d/ca.cnf" &&
			openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=localhost" \
				-addext "subjectAltName=DNS:localhost" -keyout "$d/expired.key" -out "$d/expired.csr" &&
			openssl ca -batch -notext -config "$d/ca.cnf" -cert "$d/ca.pem" -keyfile "$d/ca.key" \
				-startdate 20200101000000Z -enddate 20200102000000Z -in "$d/expired.csr" -out "$d/expired.pem"
	} >"$d/tls.log" 2>&1 || return 1
	chmod 600 "$d"/*.key
}
