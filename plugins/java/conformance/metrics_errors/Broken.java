class Broken {
    void ok() {}
    void broken( {
    }
}
