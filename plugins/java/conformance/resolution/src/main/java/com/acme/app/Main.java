package com.acme.app;

import com.acme.model.Circle;
import com.acme.model.*;
import com.acme.model.Circle.Builder;
import static com.acme.util.Strings.join;
import static com.acme.util.Strings.*;

public class Main {
    public static void main(String[] args) {
        Circle c = new Circle();
        Shape s = c;
        double a = c.area();
        Circle d = c.scale(2.0);
        Circle e = c.scale(1.0, 2.0);
        Builder b = new Builder();
        Circle.Builder b2 = new Circle.Builder();
        String text = join("a", "b");
        String empty = EMPTY;
        int four = Helper.twice(2);
        helper();
    }

    static void helper() {}
}
