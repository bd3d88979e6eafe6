module lspgate.test/truthoracle

go 1.23
