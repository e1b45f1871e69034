package inventory

import (
	"errors"
	"strings"
)

type Item struct {
	Name  string
	Count int
}

func Total(items []Item) int {
	sum := 0
	for _, item := range items {
		sum += item.Count
	}
	return sum
}

func Parse(line string) (Item, error) {
	name, _, found := strings.Cut(line, ",")
	if !found {
		return Item{}, errors.New("no comma")
	}
	return Item{Name: name, nil
}
