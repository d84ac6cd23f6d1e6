package com.example;

import java.util.List;
import static java.lang.Math.max;

@Deprecated
public class Sample<T> extends Base implements Runnable {
    public static final int MAX = 10;
    private String name;
    int count, total;

    public Sample(String name) { this.name = name; }

    @Override
    public void run() {}

    private static <U> U helper(U u) { return u; }

    protected class Inner {}
}

interface Api {
    void call();
    default int size() { return 0; }
}

enum Color {
    RED, GREEN;
    Color() {}
    public String lower() { return name(); }
}

record Point(int x, int y) {
    Point { }
}

@interface Marker {
    String value() default "";
}
