package com.acme.util;

public final class Strings {
    public static final String EMPTY = "";

    public static String join(String a, String b) {
        return a + b;
    }
}
