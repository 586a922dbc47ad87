module github.com/hotpath/hotpath/tests

go 1.24.9
