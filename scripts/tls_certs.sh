# scripts/tls_certs.sh: a throwaway test CA and server certificate for the
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
				-days 2 -sha256 -out "$d/client.pem"
	} >"$d/tls.log" 2>&1 || return 1
	chmod 600 "$d"/*.key
}
