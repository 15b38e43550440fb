package refs;

import java.util.ArrayList;

class Refs<T> extends Base<T> implements Runnable {
    private int count;
    private final Helper helper = new Helper();

    @Override
    public void run() {
        ArrayList<String> xs = new ArrayList<>();
        xs.add("a");
        this.count = Math.max(count, 1);
        count++;
        helper.go().then();
        Outer.Inner.make();
        Runnable r = this::run;
        for (String s : xs) {
            System.out.println(s.length());
        }
        try (Reader reader = open()) {
        } catch (IOException e) {
            log(e);
        }
        Object o = reader();
        if (o instanceof Helper h) {
            h.go();
        }
        xs.forEach(x -> print(x));
    }
}
