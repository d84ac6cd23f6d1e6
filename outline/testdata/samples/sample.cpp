#include <vector>
#include "widget.hpp"

namespace app {
class Inner {};
void free_fn();
}

class Widget : public Base {
public:
    Widget();
    ~Widget();
    void draw() const;
    int size = 0;
private:
    int hidden_;
    struct Nested {};
};

struct Plain {
    int a;
    void go() {}
};

enum class Mode { On, Off };

template <typename T>
T twice(T t) { return t + t; }

void Widget::draw() const {}

int global = 1;

template <typename T>
concept Addable = requires(T a) { a + a; };

using Alias = int;
