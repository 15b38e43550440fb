class Metrics {
    int grade(int score, boolean strict) {
        if (score > 90 && strict) {
            return 1;
        } else if (score > 50) {
            for (int i = 0; i < score; i++) {
                if (i % 2 == 0) {
                    continue;
                }
            }
            return 2;
        }
        switch (score) {
            case 0:
                return 0;
            case 1:
            case 2:
                return 3;
            default:
                return score > 10 ? 4 : 5;
        }
    }
}
