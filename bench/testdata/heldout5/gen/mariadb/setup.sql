-- Run once as root on the fresh data directory (mariadb-install-db
-- --user=mysql --datadir=/tmp/i12/ho5/mariadb/data --skip-test-db) before run.sh.
CREATE DATABASE shop; CREATE DATABASE logs; CREATE DATABASE hr;
CREATE USER app@'127.0.0.1' IDENTIFIED BY 'apppw'; GRANT ALL ON shop.* TO app@'127.0.0.1';
CREATE USER app@'localhost' IDENTIFIED BY 'apppw'; GRANT ALL ON shop.* TO app@'localhost';
CREATE USER rep@'localhost' IDENTIFIED BY 'reppw'; GRANT SELECT ON logs.* TO rep@'localhost';
CREATE USER ops@'localhost' IDENTIFIED BY 'opspw'; GRANT ALL ON *.* TO ops@'localhost';
CREATE TABLE shop.items (id INT PRIMARY KEY, name VARCHAR(40), qty INT) ENGINE=InnoDB;
CREATE TABLE logs.ev (id INT AUTO_INCREMENT PRIMARY KEY, msg VARCHAR(80));
CREATE TABLE hr.staff (id INT PRIMARY KEY, name VARCHAR(40));
