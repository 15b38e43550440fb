package com.acme.app;

class Helper {
    static int twice(int x) {
        return 2 * x;
    }
}
